/**
 * What a row cache (rowCache.ts) keeps of an address row besides its document, and that back as what the address
 * loader accumulates: the fields of the streets, places and derived cities, and its parents before a derived city
 * was assigned. One place says which fields these are, for the row written and the row replayed. Pure.
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { Parents } from '../records/records.js';
import { type RowCache, type RowData, STRINGS_PER_ROW } from './rowCache.js';

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

/** Rows of one cache read back, each distinct group and postcode parsed once. */
export class ReplayedRows {
  private readonly groups = new Map<number, Group>();
  private readonly postcodes = new Map<number, [string, string]>();

  constructor(private readonly cache: RowCache) {}

  address(r: number): { doc: ReplayedAddress; parents: Parents } {
    const c = this.cache.columns;
    const gi = c.strings[STRINGS_PER_ROW * r] as number;
    let g = this.groups.get(gi);
    if (!g) {
      g = JSON.parse(this.cache.strings[gi] as string) as Group;
      this.groups.set(gi, g);
    }
    const pi = c.strings[STRINGS_PER_ROW * r + 1] as number;
    let p = this.postcodes.get(pi);
    if (!p) {
      p = JSON.parse(this.cache.strings[pi] as string) as [string, string];
      this.postcodes.set(pi, p);
    }
    const doc: ReplayedAddress = {
      streetname: g[0],
      street_key: g[1],
      city: g[2],
      city_key: g[3],
      postcode: p[0],
      postcode_key: p[1],
      // In the order the address transform writes them: a place takes its point over as it is.
      location: { lon: c.lon[r] as number, lat: c.lat[r] as number },
    };
    if (g[4]) doc.street_names = g[4];
    if (g[5]) doc.other_street_keys = g[5];
    if (g[6]) doc.other_street_text = g[6];
    const parents: Parents = {
      country_id: g[7],
      province_id: g[8],
      municipality_id: g[9],
      city_id: g[10],
      suburb_id: this.cache.string(r, 'suburb'),
      building_id: this.cache.string(r, 'building'),
    };
    return { doc, parents };
  }
}
