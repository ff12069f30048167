/** The addresses index's `_source` field lists of the street lookup and forward answers, each with its hit type. */
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';

/**
 * What every answer that shows an address fetches (its id, street, number, city, postcode, location and the
 * street's names per language, which `lang` shows): lookup, forward, autocomplete and reverse extend it.
 */
export const ADDRESS_SOURCE = [
  'id',
  'streetname',
  'number',
  'suffix',
  'city',
  'postcode',
  'location',
  'street_names',
] as const satisfies readonly (keyof AddressDoc)[];

/** The stored fields a lookup answer needs; `LookupHit` is what they fetch. */
export const LOOKUP_SOURCE = [
  ...ADDRESS_SOURCE,
  // The street names' keys: which language the query matched.
  'other_street_keys',
] as const satisfies readonly (keyof AddressDoc)[];
export type LookupHit = Pick<AddressDoc, (typeof LOOKUP_SOURCE)[number]>;

/** The stored fields a forward answer needs (grading reads the keys); `ForwardHit` is what they fetch. */
export const FORWARD_SOURCE = [
  ...LOOKUP_SOURCE,
  // The hierarchy ids: GET /search's `within` keeps the addresses inside one area.
  'country_id',
  'province_id',
  'municipality_id',
  'city_id',
  'suburb_id',
  'building_id',
  'street_key',
  'suffix_key',
  'postcode_key',
  // The official source's identifiers (BAG, BeST, OpenAddresses), where it had them.
  'source_ids',
] as const satisfies readonly (keyof AddressDoc)[];
export type ForwardHit = Pick<AddressDoc, (typeof FORWARD_SOURCE)[number]>;

/** Whether the address's street carries this normalised key, as its primary name or in another language. */
export function hasStreetKey(doc: { street_key?: string; other_street_keys?: string[] | undefined }, key: string) {
  return doc.street_key === key || (doc.other_street_keys?.includes(key) ?? false);
}
