/**
 * What only the address stream knows, accumulated while it flows for the places index (indexer/derived/placeDocuments.ts): the
 * addresses per area, each street's extent and postcodes, and every postcode with its extent, cities and parents.
 * Small records, nothing allocated per address for a key already seen. Pure.
 */
import type { AddressDoc, ParentIds } from '../../core/elasticsearch/documents.js';
import type { CityRemap } from './derivedCities.js';
import { type Extent, extend, newExtent } from './placeExtent.js';
import { countInto } from '../base/tallies.js';

/** What an address contributes to places. */
export type PlaceAddress = Pick<
  AddressDoc,
  'street_key' | 'city' | 'city_key' | 'postcode' | 'postcode_key' | 'location' | keyof ParentIds
> & { suburb_id: string };

interface StreetExtra {
  extent: Extent;
  postcodes: Map<string, number>;
}

export interface PostcodeRecord {
  /** Display form: 2628CD, 2628, 1050. */
  postcode: string;
  extent: Extent;
  cities: Map<string, number>;
  parents: ParentIds;
}

/** Dutch 6-character postcodes also count into their 4-digit area. */
const DUTCH_POSTCODE_KEY_RE = /^(\d{4})[a-z]{2}$/;
const AREA_POSTCODE_KEY_RE = /^\d{4}$/;

/** The postcode places a postcode key counts into: 2628cd -> 2628CD and 2628; 1050 -> 1050; others none. */
export function postcodeForms(key: string): string[] {
  const dutch = DUTCH_POSTCODE_KEY_RE.exec(key);
  return dutch ? [key.toUpperCase(), dutch[1] as string] : AREA_POSTCODE_KEY_RE.test(key) ? [key] : [];
}

export class PlaceAccumulator {
  /** Area id -> addresses inside (every level of each address's chain). */
  private readonly areaCounts = new Map<string, number>();
  /** street_key -> city_key (the streets index's key) -> extent and postcodes (no key string built per address). */
  private readonly streets = new Map<string, Map<string, StreetExtra>>();
  /** country_id -> display postcode -> the postcode (nested: no key string built per address). */
  private readonly postcodes = new Map<string, Map<string, PostcodeRecord>>();
  /** The same records in the order they were first seen (merging equal-sized ones keeps the first). */
  private readonly postcodeList: PostcodeRecord[] = [];

  /** Postcode key -> the postcode places it counts into (2628cd: 2628CD and 2628; 1050: 1050; others none). */
  private readonly postcodeForms = new Map<string, readonly string[]>();

  // Rows come street by street: the address before's street, postcode records and parent chain are most often this
  // one's, so they are kept at hand (the chain's counts added once it changes: see flush()).
  private lastStreet: { streetKey: string; cityKey: string; extra: StreetExtra } | undefined;
  private lastPostcode: { countryId: string; key: string; records: PostcodeRecord[] } | undefined;
  private readonly chain: string[] = ['', '', '', '', ''];
  private chainCount = 0;

  /** Once per address row: map look-ups and counters only, nothing allocated for a key already seen. */
  add(doc: PlaceAddress): void {
    this.countChain(doc);
    const street = this.streetOf(doc);
    extend(street.extent, doc.location);
    countInto(street.postcodes, doc.postcode_key);
    for (const p of this.postcodesOf(doc)) {
      extend(p.extent, doc.location);
      countInto(p.cities, doc.city);
    }
  }

  /** The address's areas, counted once the chain changes (equal chains in a row add up first). */
  private countChain(doc: PlaceAddress): void {
    const c = this.chain;
    if (
      this.chainCount > 0 &&
      c[0] === doc.country_id &&
      c[1] === doc.province_id &&
      c[2] === doc.municipality_id &&
      c[3] === doc.city_id &&
      c[4] === doc.suburb_id
    ) {
      this.chainCount++;
      return;
    }
    this.flush();
    c[0] = doc.country_id;
    c[1] = doc.province_id;
    c[2] = doc.municipality_id;
    c[3] = doc.city_id;
    c[4] = doc.suburb_id;
    this.chainCount = 1;
  }

  /** The counts of the chain at hand, into the areas' counts. */
  private flush(): void {
    const n = this.chainCount;
    if (!n) return;
    for (const id of this.chain) if (id) this.areaCounts.set(id, (this.areaCounts.get(id) ?? 0) + n);
    this.chainCount = 0;
  }

  private streetOf(doc: PlaceAddress): StreetExtra {
    const last = this.lastStreet;
    if (last?.streetKey === doc.street_key && last.cityKey === doc.city_key) return last.extra;
    let inStreet = this.streets.get(doc.street_key);
    if (!inStreet) {
      inStreet = new Map();
      this.streets.set(doc.street_key, inStreet);
    }
    let extra = inStreet.get(doc.city_key);
    if (!extra) {
      extra = { extent: newExtent(doc.location), postcodes: new Map() };
      inStreet.set(doc.city_key, extra);
    }
    this.lastStreet = { streetKey: doc.street_key, cityKey: doc.city_key, extra };
    return extra;
  }

  /** The postcode places the address counts into (made on first sight, from its chain). */
  private postcodesOf(doc: PlaceAddress): PostcodeRecord[] {
    const last = this.lastPostcode;
    if (last?.key === doc.postcode_key && last.countryId === doc.country_id) return last.records;
    const records = this.postcodeFormsOf(doc.postcode_key).map((postcode) => this.postcodeRecord(doc, postcode));
    this.lastPostcode = { countryId: doc.country_id, key: doc.postcode_key, records };
    return records;
  }

  private postcodeFormsOf(key: string): readonly string[] {
    let forms = this.postcodeForms.get(key);
    if (!forms) {
      forms = postcodeForms(key);
      this.postcodeForms.set(key, forms);
    }
    return forms;
  }

  private postcodeRecord(doc: PlaceAddress, postcode: string): PostcodeRecord {
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
    return p;
  }

  /** Addresses counted into an area, after `remap` moved folded derived cities (their addresses moved too). */
  areaCount(id: string): number {
    this.flush();
    return this.areaCounts.get(id) ?? 0;
  }

  applyRemap(remap: CityRemap | undefined): void {
    this.flush();
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
    return this.streets.get(streetKey)?.get(cityKey);
  }

  postcodeRecords(): Iterable<PostcodeRecord> {
    return this.postcodeList;
  }
}
