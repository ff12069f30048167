/**
 * The places index: one document per area, street and postcode, so a search box finds any of them with one query
 * (src/features/search/placeQueries.ts). What only the address stream knows (addresses per area, each street's extent and
 * most common postcode, the postcodes themselves) is accumulated while it flows, in small records; the documents
 * are built once the areas, addresses and streets are all loaded. Pure.
 */
import type {
  AddressDoc,
  BoundingBox,
  GeoPoint,
  LocalisedNames,
  ParentIds,
  PlaceDoc,
  PlaceParentNames,
  StreetDoc,
} from '../core/elasticsearch/documents.js';
import { placeNameKeys } from '../core/text/placeKeys.js';
import type { CityRemap } from './derivedCities.js';
import { postcodePlaceId } from './ids.js';
import { AREA_LEVEL_VALUE } from './levels.js';
import type { AreaRecord } from './records.js';

/** What an address contributes to places. */
export type PlaceAddress = Pick<
  AddressDoc,
  'street_key' | 'city' | 'city_key' | 'postcode' | 'postcode_key' | 'location' | keyof ParentIds
> & { suburb_id: string };

/** A growing extent and a representative point: the address nearest the running mean (a real address, so inside). */
interface Extent {
  count: number;
  sumLat: number;
  sumLon: number;
  point: GeoPoint;
  bbox: BoundingBox;
}

function newExtent(p: GeoPoint): Extent {
  return {
    count: 0,
    sumLat: 0,
    sumLon: 0,
    point: p,
    bbox: { min_lon: p.lon, min_lat: p.lat, max_lon: p.lon, max_lat: p.lat },
  };
}

function extend(e: Extent, p: GeoPoint): void {
  e.count++;
  e.sumLat += p.lat;
  e.sumLon += p.lon;
  const b = e.bbox;
  if (p.lon < b.min_lon) b.min_lon = p.lon;
  if (p.lon > b.max_lon) b.max_lon = p.lon;
  if (p.lat < b.min_lat) b.min_lat = p.lat;
  if (p.lat > b.max_lat) b.max_lat = p.lat;
  // Once per address: the mean and the distances without allocating (equirectangular: an extent's points are close together).
  const meanLat = e.sumLat / e.count;
  const meanLon = e.sumLon / e.count;
  const cos = Math.cos((meanLat * Math.PI) / 180);
  const dLat = p.lat - meanLat;
  const dLon = (p.lon - meanLon) * cos;
  const pLat = e.point.lat - meanLat;
  const pLon = (e.point.lon - meanLon) * cos;
  if (dLat * dLat + dLon * dLon < pLat * pLat + pLon * pLon) e.point = p;
}

function countInto(map: Map<string, number>, key: string): void {
  if (key) map.set(key, (map.get(key) ?? 0) + 1);
}

function mostCommon(map: ReadonlyMap<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [key, n] of map) {
    if (n > bestCount || (n === bestCount && key < best)) {
      best = key;
      bestCount = n;
    }
  }
  return best;
}

interface StreetExtra {
  extent: Extent;
  postcodes: Map<string, number>;
}

interface PostcodeRecord {
  /** Display form: 2628CD, 2628, 1050. */
  postcode: string;
  extent: Extent;
  cities: Map<string, number>;
  parents: ParentIds;
}

/** Dutch 6-character postcodes also count into their 4-digit area. */
const DUTCH_POSTCODE_KEY_RE = /^(\d{4})[a-z]{2}$/;
const AREA_POSTCODE_KEY_RE = /^\d{4}$/;

export class PlaceAccumulator {
  /** Area id -> addresses inside (every level of each address's chain). */
  private readonly areaCounts = new Map<string, number>();
  /** `street_key|city_key` (the streets index's key) -> extent and postcodes. */
  private readonly streets = new Map<string, StreetExtra>();
  /** country_id -> display postcode -> the postcode (nested: no key string built per address). */
  private readonly postcodes = new Map<string, Map<string, PostcodeRecord>>();
  /** The same records in the order they were first seen (merging equal-sized ones keeps the first). */
  private readonly postcodeList: PostcodeRecord[] = [];

  /** Postcode key -> the postcode places it counts into (2628cd: 2628CD and 2628; 1050: 1050; others none). */
  private readonly postcodeForms = new Map<string, readonly string[]>();

  /** Once per address row: map look-ups and counters only, nothing allocated for a key already seen. */
  add(doc: PlaceAddress): void {
    countInto(this.areaCounts, doc.country_id);
    countInto(this.areaCounts, doc.province_id);
    countInto(this.areaCounts, doc.municipality_id);
    countInto(this.areaCounts, doc.city_id);
    countInto(this.areaCounts, doc.suburb_id);
    const streetKey = `${doc.street_key}|${doc.city_key}`;
    let street = this.streets.get(streetKey);
    if (!street) {
      street = { extent: newExtent(doc.location), postcodes: new Map() };
      this.streets.set(streetKey, street);
    }
    extend(street.extent, doc.location);
    countInto(street.postcodes, doc.postcode_key);
    for (const postcode of this.postcodeFormsOf(doc.postcode_key)) this.addPostcode(doc, postcode);
  }

  private postcodeFormsOf(key: string): readonly string[] {
    let forms = this.postcodeForms.get(key);
    if (!forms) {
      const dutch = DUTCH_POSTCODE_KEY_RE.exec(key);
      forms = dutch ? [key.toUpperCase(), dutch[1] as string] : AREA_POSTCODE_KEY_RE.test(key) ? [key] : [];
      this.postcodeForms.set(key, forms);
    }
    return forms;
  }

  private addPostcode(doc: PlaceAddress, postcode: string): void {
    let inCountry = this.postcodes.get(doc.country_id);
    if (!inCountry) {
      inCountry = new Map();
      this.postcodes.set(doc.country_id, inCountry);
    }
    let p = inCountry.get(postcode);
    if (!p) {
      p = {
        postcode,
        extent: newExtent(doc.location),
        cities: new Map(),
        parents: {
          country_id: doc.country_id,
          province_id: doc.province_id,
          municipality_id: doc.municipality_id,
          city_id: doc.city_id,
        },
      };
      inCountry.set(postcode, p);
      this.postcodeList.push(p);
    }
    extend(p.extent, doc.location);
    countInto(p.cities, doc.city);
  }

  /** Addresses counted into an area, after `remap` moved folded derived cities (their addresses moved too). */
  areaCount(id: string): number {
    return this.areaCounts.get(id) ?? 0;
  }

  applyRemap(remap: CityRemap | undefined): void {
    if (!remap?.size) return;
    for (const [oldId, parents] of remap) {
      const n = this.areaCounts.get(oldId);
      if (n !== undefined && parents.city_id && parents.city_id !== oldId) {
        this.areaCounts.delete(oldId);
        this.areaCounts.set(parents.city_id, (this.areaCounts.get(parents.city_id) ?? 0) + n);
      }
    }
    for (const p of this.postcodeRecords()) {
      const moved = p.parents.city_id ? remap.get(p.parents.city_id) : undefined;
      if (moved) p.parents = moved;
    }
  }

  streetExtra(streetKey: string, cityKey: string): StreetExtra | undefined {
    return this.streets.get(`${streetKey}|${cityKey}`);
  }

  postcodeRecords(): Iterable<PostcodeRecord> {
    return this.postcodeList;
  }
}

/** One postcode from two records: the larger one's parents and point, both extents and cities. */
function mergePostcodes(a: PostcodeRecord, b: PostcodeRecord): PostcodeRecord {
  const [big, small] = a.extent.count >= b.extent.count ? [a, b] : [b, a];
  const cities = new Map(big.cities);
  for (const [city, n] of small.cities) cities.set(city, (cities.get(city) ?? 0) + n);
  const x = big.extent.bbox;
  const y = small.extent.bbox;
  return {
    postcode: big.postcode,
    parents: big.parents,
    cities,
    extent: {
      count: big.extent.count + small.extent.count,
      sumLat: big.extent.sumLat + small.extent.sumLat,
      sumLon: big.extent.sumLon + small.extent.sumLon,
      point: big.extent.point,
      bbox: {
        min_lon: Math.min(x.min_lon, y.min_lon),
        min_lat: Math.min(x.min_lat, y.min_lat),
        max_lon: Math.max(x.max_lon, y.max_lon),
        max_lat: Math.max(x.max_lat, y.max_lat),
      },
    },
  };
}

/** An area as the places see it: a record of the hierarchy, with per-language names where it has them. */
export type PlaceArea = Pick<
  AreaRecord,
  'id' | 'level' | 'name' | 'localIdentifier' | 'countryCode' | 'centroid' | 'bbox' | 'parents'
> & { names?: LocalisedNames | undefined };

/** A street as the places see it: the streets index's document (per-language names in `street_names`). */
export type PlaceStreet = StreetDoc;

export interface PlaceSources {
  areas: Iterable<PlaceArea>;
  streets: Iterable<PlaceStreet>;
  accumulator: PlaceAccumulator;
  /** The hierarchy: parent names and country codes. */
  area(id: string): PlaceArea | undefined;
}

function namesOf(name: string, names: LocalisedNames | undefined): string[] {
  const all = [name];
  for (const n of Object.values(names ?? {})) if (n && !all.includes(n)) all.push(n);
  return all;
}

function keysOf(names: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const n of names) for (const k of placeNameKeys(n)) keys.add(k);
  return [...keys];
}

function ancestorIds(parents: ParentIds): string[] {
  return [parents.country_id, parents.province_id, parents.municipality_id, parents.city_id].filter((id) => id);
}

/** The sources' documents: areas first (in hierarchy order), then streets, then postcodes. */
export function* buildPlaces(src: PlaceSources): Generator<PlaceDoc> {
  const parentNames = (parents: ParentIds): PlaceParentNames => ({
    city: src.area(parents.city_id)?.name ?? '',
    municipality: src.area(parents.municipality_id)?.name ?? '',
    province: src.area(parents.province_id)?.name ?? '',
    country: src.area(parents.country_id)?.name ?? '',
  });
  // Every language's name of every ancestor: "Elsene Brussel" and "Ixelles Bruxelles" both qualify.
  const ancestorNames = (parents: ParentIds): string[] =>
    ancestorIds(parents).flatMap((id) => {
      const a = src.area(id);
      return a ? namesOf(a.name, a.names) : [];
    });
  const localityKeys = (parents: ParentIds, cityName = ''): string[] => {
    const locality = src.area(parents.city_id) ?? src.area(parents.municipality_id);
    return keysOf([...(cityName ? [cityName] : []), ...(locality ? namesOf(locality.name, locality.names) : [])]);
  };
  const countryOf = (parents: ParentIds, own = ''): string => own || src.area(parents.country_id)?.countryCode || '';

  for (const a of src.areas) {
    const names = namesOf(a.name, a.names);
    const count = src.accumulator.areaCount(a.id);
    yield {
      id: a.id,
      type: AREA_LEVEL_VALUE[a.level],
      name: a.name,
      names: a.names ?? {},
      name_keys: keysOf(names),
      qualifier_keys: keysOf(ancestorNames(a.parents)),
      locality_keys: localityKeys(a.parents),
      local_identifier: a.localIdentifier,
      parent_names: parentNames(a.parents),
      ancestor_ids: [...ancestorIds(a.parents), a.id],
      country: countryOf(a.parents, a.countryCode),
      streetname: '',
      city: '',
      postcode: '',
      location: a.centroid,
      bbox: a.bbox,
      address_count: count,
    };
  }

  for (const s of src.streets) {
    const extra = src.accumulator.streetExtra(s.street_key, s.city_key);
    const postcodeKey = extra ? mostCommon(extra.postcodes) : '';
    const postcode = postcodeKey.toUpperCase();
    yield {
      id: s.id,
      type: 'street',
      name: s.streetname,
      names: s.street_names ?? {},
      name_keys: keysOf(namesOf(s.streetname, s.street_names)),
      // Its postcode and postcode area qualify it too: "Mekelweg 2628".
      qualifier_keys: keysOf([s.city, ...ancestorNames(s), ...(postcode ? [postcode, postcode.slice(0, 4)] : [])]),
      locality_keys: localityKeys(s, s.city),
      local_identifier: '',
      parent_names: parentNames(s),
      ancestor_ids: ancestorIds(s),
      country: countryOf(s),
      streetname: s.streetname,
      city: s.city,
      postcode,
      location: s.location,
      bbox: extra?.extent.bbox ?? {
        min_lon: s.location.lon,
        min_lat: s.location.lat,
        max_lon: s.location.lon,
        max_lat: s.location.lat,
      },
      address_count: s.address_count,
    };
  }

  // Keyed by country id while the addresses streamed, a postcode is one place per country code: addresses of one
  // postcode found outside every country polygon (a generalised coast) join their country's once a folded derived
  // city gave them its chain.
  const postcodes = new Map<string, PostcodeRecord>();
  for (const p of src.accumulator.postcodeRecords()) {
    const id = postcodePlaceId(countryOf(p.parents), p.postcode);
    const other = postcodes.get(id);
    postcodes.set(id, other ? mergePostcodes(other, p) : p);
  }
  for (const [id, p] of postcodes) {
    const city = mostCommon(p.cities);
    const country = countryOf(p.parents);
    yield {
      id,
      type: 'postcode',
      name: p.postcode,
      names: {},
      name_keys: keysOf([p.postcode]),
      qualifier_keys: keysOf([city, ...ancestorNames(p.parents)]),
      locality_keys: localityKeys(p.parents, city),
      local_identifier: '',
      parent_names: parentNames(p.parents),
      ancestor_ids: ancestorIds(p.parents),
      country,
      streetname: '',
      city,
      postcode: p.postcode,
      location: p.extent.point,
      bbox: p.extent.bbox,
      address_count: p.extent.count,
    };
  }
}
