/**
 * Sources in an official format (`"format": "bag-gpkg"`): whole sources with nothing to map. The format knows its
 * layout, so the manifest names only the file; this fills in the fields its reader's records carry (pure), before the
 * manifest schema checks the source like any other. A `fields` the manifest does give replaces the format's own.
 */
import type { LevelName } from './levels.js';
import type { AddressSource, AreaSource } from './manifestSources.js';

export const OFFICIAL_FORMATS = ['bag-gpkg'] as const;
export type OfficialFormat = (typeof OFFICIAL_FORMATS)[number];

/** The levels each official format can feed. */
export const OFFICIAL_LEVELS: Record<OfficialFormat, readonly LevelName[]> = {
  'bag-gpkg': ['addresses', 'cities'],
};

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

const DEFAULT_FIELDS: Record<OfficialFormat, Partial<Record<LevelName, object>>> = {
  'bag-gpkg': { addresses: BAG_ADDRESS_FIELDS, cities: BAG_CITY_FIELDS },
};

export function isOfficialFormat(format: unknown): format is OfficialFormat {
  return typeof format === 'string' && (OFFICIAL_FORMATS as readonly string[]).includes(format);
}

/** A zod preprocess step for one level's sources: an official source without `fields` gets its format's own. */
export function withOfficialFields(level: LevelName) {
  return (raw: unknown): unknown => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const source = raw as { format?: unknown; fields?: unknown };
    if (!isOfficialFormat(source.format) || source.fields !== undefined) return raw;
    const fields = DEFAULT_FIELDS[source.format][level];
    return fields ? { ...source, fields: structuredClone(fields) } : raw;
  };
}
