/**
 * What a row cache (rowCache.ts) keeps of an address row besides its document, and that back as what the address
 * loader accumulates: the fields of the streets, places and derived cities, and its parents before a derived city
 * was assigned. One place says which fields these are, for the row written and the row replayed. Pure.
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { Parents } from '../records/records.js';
import { ROW_STRINGS, type RowCache, type RowData, STRINGS_PER_ROW } from './rowCache.js';

const GROUP_AT = ROW_STRINGS.indexOf('group');
const POSTCODE_AT = ROW_STRINGS.indexOf('postcode');
const SUBURB_AT = ROW_STRINGS.indexOf('suburb');
const BUILDING_AT = ROW_STRINGS.indexOf('building');

/** The address fields a replayed row gives the street, place and derived-city accumulators. */
export type ReplayedAddress = Pick<
  AddressDoc,
  | 'streetname'
  | 'street_key'
  | 'city'
  | 'city_key'
  | 'postcode'
  | 'postcode_key'
  | 'location'
  | 'street_names'
  | 'other_street_keys'
  | 'other_street_text'
>;

type Group = [
  string,
  string,
  string,
  string,
  AddressDoc['street_names'] | null,
  string[] | null,
  string[] | null,
  string,
  string,
  string,
  string,
];

/** The row's data: `parents` as found before a derived city was assigned, `city` the city id it ended with. */
export function rowDataOf(doc: ReplayedAddress, parents: Parents, city: string): RowData {
  const group: Group = [
    doc.streetname,
    doc.street_key,
    doc.city,
    doc.city_key,
    doc.street_names ?? null,
    doc.other_street_keys ?? null,
    doc.other_street_text ?? null,
    parents.country_id,
    parents.province_id,
    parents.municipality_id,
    parents.city_id,
  ];
  return {
    group: JSON.stringify(group),
    postcode: JSON.stringify([doc.postcode, doc.postcode_key]),
    suburb: parents.suburb_id,
    building: parents.building_id,
    city,
    lat: doc.location.lat,
    lon: doc.location.lon,
  };
}

/**
 * Rows of one cache read back, each distinct group and postcode parsed once. `address(r)` fills one pair of objects
 * and returns it (nothing allocated per row): what it returns holds only until the next call, so whoever takes it
 * copies what it keeps.
 */
export class ReplayedRows {
  /** By interned string index: a group or postcode parsed once (arrays sized once: faster than a Map per row). */
  private readonly groups: (Group | undefined)[];
  private readonly postcodes: ([string, string] | undefined)[];
  private readonly location = { lon: 0, lat: 0 };
  private readonly doc: ReplayedAddress = {
    streetname: '',
    street_key: '',
    city: '',
    city_key: '',
    postcode: '',
    postcode_key: '',
    // In the order the address transform writes them: a place takes its point over as it is.
    location: this.location,
  };
  private readonly parents: Parents = {
    country_id: '',
    province_id: '',
    municipality_id: '',
    city_id: '',
    suburb_id: '',
    building_id: '',
  };
  private readonly replayed = { doc: this.doc, parents: this.parents };

  constructor(private readonly cache: RowCache) {
    this.groups = new Array<Group | undefined>(cache.strings.length);
    this.postcodes = new Array<[string, string] | undefined>(cache.strings.length);
  }

  address(r: number): { doc: ReplayedAddress; parents: Parents } {
    const at = STRINGS_PER_ROW * r;
    const indexes = this.cache.columns.strings;
    const strings = this.cache.strings;
    const gi = indexes[at + GROUP_AT] as number;
    let g = this.groups[gi];
    if (!g) {
      g = JSON.parse(strings[gi] as string) as Group;
      this.groups[gi] = g;
    }
    const pi = indexes[at + POSTCODE_AT] as number;
    let p = this.postcodes[pi];
    if (!p) {
      p = JSON.parse(strings[pi] as string) as [string, string];
      this.postcodes[pi] = p;
    }
    const c = this.cache.columns;
    const doc = this.doc;
    doc.streetname = g[0];
    doc.street_key = g[1];
    doc.city = g[2];
    doc.city_key = g[3];
    doc.postcode = p[0];
    doc.postcode_key = p[1];
    this.location.lon = c.lon[r] as number;
    this.location.lat = c.lat[r] as number;
    // Unset where the row has none (undefined, not deleted: the object keeps its shape; no accumulator tells them apart).
    doc.street_names = g[4] ?? undefined;
    doc.other_street_keys = g[5] ?? undefined;
    doc.other_street_text = g[6] ?? undefined;
    const parents = this.parents;
    parents.country_id = g[7];
    parents.province_id = g[8];
    parents.municipality_id = g[9];
    parents.city_id = g[10];
    parents.suburb_id = strings[indexes[at + SUBURB_AT] as number] as string;
    parents.building_id = strings[indexes[at + BUILDING_AT] as number] as string;
    return this.replayed;
  }
}
