/**
 * Sources in an official format (`"format": "bag-gpkg"`, `"best-csv"`, `"openaddresses"`, `"osm-pbf"`): whole sources with nothing to map. The format knows its
 * layout, so the manifest names only the file; this fills in the fields its reader's records carry (pure), before the
 * manifest schema checks the source like any other. A `fields` the manifest does give replaces the format's own.
 */
import type { LevelName } from '../base/levels.js';
import type { AddressSource, AreaSource, AttributionSpec } from './manifestSources.js';

export const OFFICIAL_FORMATS = ['bag-gpkg', 'best-csv', 'openaddresses', 'osm-pbf'] as const;
export type OfficialFormat = (typeof OFFICIAL_FORMATS)[number];

/** The levels each official format can feed. */
export const OFFICIAL_LEVELS: Record<OfficialFormat, readonly LevelName[]> = {
  'bag-gpkg': ['addresses', 'cities'],
  'best-csv': ['addresses'],
  openaddresses: ['addresses'],
  'osm-pbf': ['countries', 'provinces', 'municipalities', 'cities', 'suburbs', 'addresses'],
};

/** Formats whose records carry a status to filter on (`statuses.keep` overrides the default list). */
export const STATUS_FORMATS: readonly OfficialFormat[] = ['bag-gpkg', 'best-csv'];

/** What indexer/sources/bag/readBag.ts's address records carry. */
const BAG_ADDRESS_FIELDS: AddressSource['fields'] = {
  sourceId: 'nummeraanduiding_hoofdadres_identificatie',
  sourceIds: {
    bag_nummeraanduiding: 'nummeraanduiding_hoofdadres_identificatie',
    bag_verblijfsobject: 'verblijfsobject_identificatie',
    bag_standplaats: 'standplaats_identificatie',
    bag_ligplaats: 'ligplaats_identificatie',
    bag_pand: 'pand_identificatie',
  },
  street: 'openbare_ruimte_naam',
  number: 'huisnummer',
  letter: 'huisletter',
  addition: 'toevoeging',
  postcode: 'postcode',
  city: 'woonplaats_naam',
};

/** What readBag.ts's woonplaats records carry: the BAG woonplaats code is the city's local identifier. */
const BAG_CITY_FIELDS: AreaSource['fields'] = {
  key: 'identificatie',
  name: 'woonplaats',
  localIdentifier: 'identificatie',
};

/**
 * What indexer/sources/best/readBest.ts's records carry: the street and municipality in the address's primary
 * language, every language's street name, the box as the addition (read as `bus N` is), the BeST address id.
 */
const BEST_ADDRESS_FIELDS: AddressSource['fields'] = {
  sourceId: 'address_id',
  sourceIds: { best_address: 'address_id' },
  street: 'street',
  streetLanguage: 'street_language',
  streetNamesByLanguage: { nl: 'streetname_nl', fr: 'streetname_fr', de: 'streetname_de' },
  number: 'house_number',
  addition: 'box_number',
  postcode: 'postcode',
  city: 'city',
  lon: 'lon',
  lat: 'lat',
};

/** BeST's municipality NIS code joined to the municipality level's local identifier (then the rest spatially). */
const BEST_PARENT: AddressSource['parent'] = {
  by: 'code',
  level: 'municipalities',
  field: 'municipality_id',
  parentField: 'local_identifier',
};

/** What indexer/sources/openaddresses/readOpenAddresses.ts's records carry; HASH, else ID, is the source id. */
const OPENADDRESSES_FIELDS: AddressSource['fields'] = {
  sourceId: { first: ['hash', 'id'] },
  sourceIds: { openaddresses_id: 'id', openaddresses_hash: 'hash' },
  street: 'street',
  number: 'number',
  addition: 'unit',
  postcode: 'postcode',
  city: { first: ['city', 'district'] },
  lon: 'lon',
  lat: 'lat',
};

/**
 * What indexer/sources/osm/readOsmAddresses.ts's records carry: the object's tags, its `osm_object` (`node/123`) and
 * where it is (`lon`, `lat`). `addr:place` stands for the street where there is none (a hamlet's numbers);
 * `addr:unit`, else `addr:flats`, is the addition.
 */
const OSM_ADDRESS_FIELDS: AddressSource['fields'] = {
  sourceId: 'osm_object',
  sourceIds: { osm: 'osm_object' },
  street: { first: ['addr:street', 'addr:place'] },
  number: 'addr:housenumber',
  addition: { first: ['addr:unit', 'addr:flats'] },
  postcode: 'addr:postcode',
  city: 'addr:city',
  lon: 'lon',
  lat: 'lat',
};

/**
 * What indexer/sources/osm/readOsmAreas.ts's boundaries carry: the relation's tags, `osm_key` (`r123`) and
 * `country_code` (its ISO 3166-1 tag, or the source's country for its admin_level 2). `name` is the shown name,
 * `name:nl/fr/de` the names per language.
 */
const OSM_AREA_FIELDS: AreaSource['fields'] = {
  key: 'osm_key',
  name: 'name',
  names: { nl: 'name:nl', fr: 'name:fr', de: 'name:de' },
  localIdentifier: { first: ['ISO3166-2', 'ref'] },
  countryCode: 'country_code',
};

const OSM_COUNTRY_FIELDS: AreaSource['fields'] = {
  ...OSM_AREA_FIELDS,
  localIdentifier: 'country_code',
  countryCode3: 'ISO3166-1:alpha3',
};

const DEFAULT_FIELDS: Record<OfficialFormat, Partial<Record<LevelName, object>>> = {
  'bag-gpkg': { addresses: BAG_ADDRESS_FIELDS, cities: BAG_CITY_FIELDS },
  'best-csv': { addresses: BEST_ADDRESS_FIELDS },
  openaddresses: { addresses: OPENADDRESSES_FIELDS },
  'osm-pbf': {
    addresses: OSM_ADDRESS_FIELDS,
    countries: OSM_COUNTRY_FIELDS,
    provinces: OSM_AREA_FIELDS,
    municipalities: OSM_AREA_FIELDS,
    cities: OSM_AREA_FIELDS,
    suburbs: OSM_AREA_FIELDS,
  },
};

const DEFAULT_PARENT: Partial<Record<OfficialFormat, AddressSource['parent']>> = { 'best-csv': BEST_PARENT };

/**
 * The credit a national register's data carries when the manifest names none (OpenAddresses gathers many sources:
 * none by default).
 */
const DEFAULT_ATTRIBUTION: Partial<Record<OfficialFormat, AttributionSpec>> = {
  'bag-gpkg': { text: 'BAG, Kadaster (CC0 1.0)', countries: ['NL'] },
  'best-csv': { text: 'BeST Address, BOSA', countries: ['BE'] },
};

export function isOfficialFormat(format: unknown): format is OfficialFormat {
  return typeof format === 'string' && (OFFICIAL_FORMATS as readonly string[]).includes(format);
}

/**
 * A zod preprocess step for one level's sources: an official source without `fields` (or `parent`) gets its
 * format's own.
 */
export function withOfficialFields(level: LevelName) {
  return (raw: unknown): unknown => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const source = raw as { format?: unknown; fields?: unknown; parent?: unknown; attribution?: unknown };
    if (!isOfficialFormat(source.format)) return raw;
    const fields = DEFAULT_FIELDS[source.format][level];
    const parent = level === 'addresses' ? DEFAULT_PARENT[source.format] : undefined;
    const attribution = DEFAULT_ATTRIBUTION[source.format];
    return {
      ...source,
      ...(source.fields === undefined && fields ? { fields: structuredClone(fields) } : {}),
      ...(source.parent === undefined && parent ? { parent: structuredClone(parent) } : {}),
      ...(source.attribution === undefined && attribution ? { attribution: structuredClone(attribution) } : {}),
    };
  };
}
