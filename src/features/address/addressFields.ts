/** The addresses index's `_source` field lists of the street lookup and forward answers, each with its hit type. */
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';

/** The stored fields a lookup answer needs; `LookupHit` is what they fetch. */
export const LOOKUP_SOURCE = [
  'id',
  'streetname',
  'number',
  'suffix',
  'city',
  'postcode',
  'location',
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
] as const satisfies readonly (keyof AddressDoc)[];
export type ForwardHit = Pick<AddressDoc, (typeof FORWARD_SOURCE)[number]>;
