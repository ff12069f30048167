/**
 * The places index: one document per area, street and postcode, so a search box finds any of them with one query
 * (src/features/search/placeQueries.ts). What only the address stream knows comes from the PlaceAccumulator
 * (indexer/derived/placeAccumulator.ts); the documents are built here once the areas, addresses and streets are all loaded.
 * Pure.
 */
import type {
  GeoPoint,
  LocalisedNames,
  ParentIds,
  PlaceDoc,
  PlaceParentNames,
  StreetDoc,
} from '../../core/elasticsearch/documents.js';
import { placeNameKeys } from '../base/text.js';
import { postcodePlaceId } from '../records/ids.js';
import { AREA_LEVEL_VALUE } from '../base/levels.js';
import type { PlaceAccumulator, PostcodeRecord } from './placeAccumulator.js';
import { mergeExtents } from './placeExtent.js';
import type { AreaRecord } from '../records/records.js';
import { mostCommon } from '../base/tallies.js';

/** An area as the places see it: a record of the hierarchy, with per-language names where it has them. */
export type PlaceArea = Pick<
  AreaRecord,
  'id' | 'level' | 'name' | 'localIdentifier' | 'countryCode' | 'centroid' | 'bbox' | 'parents'
> & { names?: LocalisedNames | undefined };

/** A street as the places see it: the streets index's document (per-language names in `street_names`). */
export type PlaceStreet = StreetDoc;

/**
 * A place that is a point, not an area of the hierarchy: an OpenStreetMap place node (a village, a hamlet, a
 * neighbourhood) no area of its name holds (indexer/levelLoaders/osmFeatures.ts). Its id is its own, not a hierarchy
 * id: it has no boundary and no children.
 */
export interface PlacePoint {
  id: string;
  type: 'city' | 'suburb';
  name: string;
  names: LocalisedNames;
  location: GeoPoint;
  parents: ParentIds;
}

export interface PlaceSources {
  areas: Iterable<PlaceArea>;
  /** Places that are points (after the areas, before the streets). */
  points?: Iterable<PlacePoint>;
  streets: Iterable<PlaceStreet>;
  accumulator: PlaceAccumulator;
  /** The hierarchy: parent names and country codes. */
  area(id: string): PlaceArea | undefined;
  /**
   * A street's or postcode's place kept as it is (an update's untouched places: untouchedDocuments.ts), told what
   * decides it before the place is built: true leaves it out. Areas' places are always built.
   */
  kept?: (place: Pick<PlaceDoc, 'id' | 'type' | 'postcode' | 'ancestor_ids'>) => boolean;
}

function namesOf(name: string, names: LocalisedNames | undefined): string[] {
  const all = [name];
  for (const n of Object.values(names ?? {})) if (n && !all.includes(n)) all.push(n);
  return all;
}

/** placeNameKeys per distinct name, once per build: ancestors' and cities' names recur in thousands of places. */
function memoNameKeys(): (name: string) => readonly string[] {
  const memo = new Map<string, readonly string[]>();
  return (name) => {
    let keys = memo.get(name);
    if (!keys) {
      keys = placeNameKeys(name);
      memo.set(name, keys);
    }
    return keys;
  };
}

function ancestorIds(parents: ParentIds): string[] {
  return [parents.country_id, parents.province_id, parents.municipality_id, parents.city_id].filter((id) => id);
}

/** One postcode from two records: the larger one's parents and point, both extents and cities. */
function mergePostcodes(a: PostcodeRecord, b: PostcodeRecord): PostcodeRecord {
  const [big, small] = a.extent.count >= b.extent.count ? [a, b] : [b, a];
  const cities = new Map(big.cities);
  for (const [city, n] of small.cities) cities.set(city, (cities.get(city) ?? 0) + n);
  return { postcode: big.postcode, parents: big.parents, cities, extent: mergeExtents(big.extent, small.extent) };
}

/** What every place document is keyed and named by: its names' keys, its ancestors' names, its locality, its country. */
interface PlaceNaming {
  keysOf: (names: readonly string[]) => string[];
  parentNames: (parents: ParentIds) => PlaceParentNames;
  /** Every language's name of every ancestor: "Elsene Brussel" and "Ixelles Bruxelles" both qualify. */
  ancestorNames: (parents: ParentIds) => string[];
  localityKeys: (parents: ParentIds, cityName?: string) => string[];
  countryOf: (parents: ParentIds, own?: string) => string;
}

function placeNaming(src: PlaceSources): PlaceNaming {
  const nameKeys = memoNameKeys();
  const keysOf = (names: readonly string[]): string[] => {
    const keys = new Set<string>();
    for (const n of names) for (const k of nameKeys(n)) keys.add(k);
    return [...keys];
  };
  return {
    keysOf,
    parentNames: (parents) => ({
      city: src.area(parents.city_id)?.name ?? '',
      municipality: src.area(parents.municipality_id)?.name ?? '',
      province: src.area(parents.province_id)?.name ?? '',
      country: src.area(parents.country_id)?.name ?? '',
    }),
    ancestorNames: (parents) =>
      ancestorIds(parents).flatMap((id) => {
        const a = src.area(id);
        return a ? namesOf(a.name, a.names) : [];
      }),
    localityKeys: (parents, cityName = '') => {
      const locality = src.area(parents.city_id) ?? src.area(parents.municipality_id);
      return keysOf([...(cityName ? [cityName] : []), ...(locality ? namesOf(locality.name, locality.names) : [])]);
    },
    countryOf: (parents, own = '') => own || src.area(parents.country_id)?.countryCode || '',
  };
}

/** The envelope of a street's points (one with no address: its points are along its ways). */
function bboxOf(points: readonly GeoPoint[]): PlaceDoc['bbox'] {
  const lons = points.map((p) => p.lon);
  const lats = points.map((p) => p.lat);
  return {
    min_lon: Math.min(...lons),
    min_lat: Math.min(...lats),
    max_lon: Math.max(...lons),
    max_lat: Math.max(...lats),
  };
}

/** The sources' documents: areas first (in hierarchy order), then the point places, then streets, then postcodes. */
export function* buildPlaces(src: PlaceSources): Generator<PlaceDoc> {
  const naming = placeNaming(src);
  for (const a of src.areas) yield areaPlace(a, src.accumulator.areaCount(a.id), naming);
  for (const p of src.points ?? []) yield pointPlace(p, naming);
  for (const s of src.streets) {
    if (src.kept?.({ id: s.id, type: 'street', postcode: '', ancestor_ids: ancestorIds(s) })) continue;
    yield streetPlace(s, src.accumulator.streetExtra(s.street_key, s.city_key), naming);
  }
  for (const [id, p] of postcodesByCountry(src, naming)) {
    if (src.kept?.({ id, type: 'postcode', postcode: p.postcode, ancestor_ids: ancestorIds(p.parents) })) continue;
    yield postcodePlace(id, p, naming);
  }
}

function areaPlace(a: PlaceArea, count: number, naming: PlaceNaming): PlaceDoc {
  const { keysOf } = naming;
  return {
    id: a.id,
    type: AREA_LEVEL_VALUE[a.level],
    name: a.name,
    names: a.names ?? {},
    name_keys: keysOf(namesOf(a.name, a.names)),
    primary_name_keys: keysOf([a.name]),
    qualifier_keys: keysOf(naming.ancestorNames(a.parents)),
    locality_keys: naming.localityKeys(a.parents),
    local_identifier: a.localIdentifier,
    parent_names: naming.parentNames(a.parents),
    ancestor_ids: [...ancestorIds(a.parents), a.id],
    country: naming.countryOf(a.parents, a.countryCode),
    streetname: '',
    city: '',
    postcode: '',
    location: a.centroid,
    bbox: a.bbox,
    address_count: count,
  };
}

function pointPlace(p: PlacePoint, naming: PlaceNaming): PlaceDoc {
  const { keysOf } = naming;
  const { lon, lat } = p.location;
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    names: p.names,
    name_keys: keysOf(namesOf(p.name, p.names)),
    primary_name_keys: keysOf([p.name]),
    qualifier_keys: keysOf(naming.ancestorNames(p.parents)),
    locality_keys: naming.localityKeys(p.parents),
    local_identifier: '',
    parent_names: naming.parentNames(p.parents),
    ancestor_ids: ancestorIds(p.parents),
    country: naming.countryOf(p.parents),
    streetname: '',
    city: '',
    postcode: '',
    location: p.location,
    bbox: { min_lon: lon, min_lat: lat, max_lon: lon, max_lat: lat },
    address_count: 0,
  };
}

function streetPlace(
  s: PlaceStreet,
  extra: ReturnType<PlaceSources['accumulator']['streetExtra']>,
  naming: PlaceNaming,
): PlaceDoc {
  const { keysOf } = naming;
  const postcodeKey = extra ? mostCommon(extra.postcodes) : '';
  const postcode = postcodeKey.toUpperCase();
  return {
    id: s.id,
    type: 'street',
    name: s.streetname,
    names: s.street_names ?? {},
    name_keys: keysOf(namesOf(s.streetname, s.street_names)),
    primary_name_keys: keysOf([s.streetname]),
    // Its postcode and postcode area qualify it too: "Mekelweg 2628".
    qualifier_keys: keysOf([s.city, ...naming.ancestorNames(s), ...(postcode ? [postcode, postcode.slice(0, 4)] : [])]),
    locality_keys: naming.localityKeys(s, s.city),
    local_identifier: '',
    parent_names: naming.parentNames(s),
    ancestor_ids: ancestorIds(s),
    country: naming.countryOf(s),
    streetname: s.streetname,
    city: s.city,
    postcode,
    location: s.location,
    bbox: extra?.extent.bbox ?? bboxOf(s.points.length ? s.points : [s.location]),
    address_count: s.address_count,
  };
}

/**
 * Keyed by country id while the addresses streamed, a postcode is one place per country code: addresses of one
 * postcode found outside every country polygon (a generalised coast) join their country's once a folded derived
 * city gave them its chain.
 */
function postcodesByCountry(src: PlaceSources, naming: PlaceNaming): Map<string, PostcodeRecord> {
  const postcodes = new Map<string, PostcodeRecord>();
  for (const p of src.accumulator.postcodeRecords()) {
    const id = postcodePlaceId(naming.countryOf(p.parents), p.postcode);
    const other = postcodes.get(id);
    postcodes.set(id, other ? mergePostcodes(other, p) : p);
  }
  return postcodes;
}

function postcodePlace(id: string, p: PostcodeRecord, naming: PlaceNaming): PlaceDoc {
  const { keysOf } = naming;
  const city = mostCommon(p.cities);
  return {
    id,
    type: 'postcode',
    name: p.postcode,
    names: {},
    name_keys: keysOf([p.postcode]),
    primary_name_keys: keysOf([p.postcode]),
    qualifier_keys: keysOf([city, ...naming.ancestorNames(p.parents)]),
    locality_keys: naming.localityKeys(p.parents, city),
    local_identifier: '',
    parent_names: naming.parentNames(p.parents),
    ancestor_ids: ancestorIds(p.parents),
    country: naming.countryOf(p.parents),
    streetname: '',
    city,
    postcode: p.postcode,
    location: p.extent.point,
    bbox: p.extent.bbox,
    address_count: p.extent.count,
  };
}
