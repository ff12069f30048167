/** GET /autocomplete: the type-ahead suggestions. */
import { z } from 'zod';
import { PLACE_TYPES } from '../../../core/elasticsearch/documents.js';
import { AddressNames, Coordinates } from './fields.js';

/**
 * GET /autocomplete: streets, addresses, postcodes and areas for type-ahead, `type` as GET /search names them;
 * `id` on addresses, streets (the street's id, as GET /search names it) and areas (the hierarchy id), `bbox` on areas.
 */
export const AutocompleteSuggestion = z.object({
  type: z.enum(['address', ...PLACE_TYPES]),
  label: z.string(),
  id: z.string().optional(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  streetname: z.string(),
  number: z.string(),
  suffix: z.string(),
  postcode: z.string(),
  city: z.string(),
  ...Coordinates,
  names: AddressNames,
});
export const AutocompleteResponse = z.array(AutocompleteSuggestion);
