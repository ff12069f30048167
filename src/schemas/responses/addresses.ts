/** Address records: GET /addresses/{id}, the street lookup, forward geocoding and its batch. */
import { z } from 'zod';
import { ErrorResponse } from './errors.js';
import { AddressNames, Coordinates, SourceIds } from './fields.js';

/**
 * Every documented field is always present; strings stay strings ("" when the value is absent). `names` and
 * `source_ids` are the optional fields: only where the street or the city is named in several languages, and where
 * an official source gave the address its identifiers.
 */
export const Address = z.object({
  id: z.string(),
  suburb_id: z.string(),
  building_id: z.string(),
  number: z.string(),
  suffix: z.string(),
  streetname: z.string(),
  postcode: z.string(),
  city: z.string(),
  names: AddressNames,
  source_ids: SourceIds,
});
export const AddressList = z.array(Address);

export const LookupResult = Address.pick({
  id: true,
  streetname: true,
  number: true,
  suffix: true,
  city: true,
  postcode: true,
  names: true,
}).extend(Coordinates);
export const LookupResponse = z.array(LookupResult);

export const MatchQuality = z.object({
  street: z.enum(['exact', 'normalized', 'fuzzy', 'none']),
  number: z.enum(['exact', 'other_suffix', 'nearest']),
  postcode: z.enum(['exact', 'ignored', 'none']),
  city: z
    .enum(['exact', 'fuzzy', 'partial', 'ignored', 'none'])
    .describe(
      'How the city was matched: `exact`, through a typo (`fuzzy`, x0.95), beside words of the text nothing placed ' +
        '(`partial`, x0.9), named but unknown and ignored (`ignored`, x0.9), or not given (`none`)',
    ),
});

export const ForwardResult = Address.extend({
  ...Coordinates,
  confidence: z.number().min(0).max(1),
  match: MatchQuality,
});

/** POST /geocode/batch: one entry per item, in input order; a bad item answers its own error. */
export const BatchItemResult = z.union([
  z.object({ status: z.literal(200), result: ForwardResult }),
  z.object({ status: z.union([z.literal(400), z.literal(404)]), error: ErrorResponse.shape.error }),
]);
export const BatchResponse = z.object({ results: z.array(BatchItemResult) });
