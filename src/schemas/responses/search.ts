/** GET /search: the search box's results, addresses and places on one list. */
import { z } from 'zod';
import { AREA_PLACE_TYPES, type AreaLevel } from '../../../core/elasticsearch/documents.js';
import { ForwardResult } from './addresses.js';
import { Bbox, Coordinates } from './fields.js';

/** A place's name per language, present when it has more than one (Brussels: nl and fr). */
const Names = z.record(z.string(), z.string()).optional();
/** What every place result carries: a label, a point inside it, its envelope, how well its name matched. */
const PlaceCommon = {
  label: z.string(),
  id: z.string(),
  ...Coordinates,
  bbox: Bbox,
  address_count: z.number().int().min(0),
  match: z.enum(['exact', 'prefix', 'typo']),
  confidence: z.number().min(0).max(1),
};
export const AddressSearchResult = ForwardResult.extend({ type: z.literal('address'), label: z.string() });
export const StreetSearchResult = z.object({
  type: z.literal('street'),
  ...PlaceCommon,
  streetname: z.string(),
  city: z.string(),
  postcode: z.string().describe('The most common postcode of its addresses, "" when unknown'),
  names: Names,
  unmatched: z
    .array(z.enum(['number']))
    .optional()
    .describe(
      'Parts of the text the street does not match: `number` when the house number typed is not in the register on ' +
        'this street (the street answers it, before the nearest existing number)',
    ),
});
export const PostcodeSearchResult = z.object({
  type: z.literal('postcode'),
  ...PlaceCommon,
  postcode: z.string(),
  city: z.string(),
});
const ParentNames = z.object({
  city: z.string(),
  municipality: z.string(),
  province: z.string(),
  country: z.string(),
});
/** An area: `id` is the hierarchy id (`/cities/{id}/geojson` and the like). */
const areaSearchResult = <T extends AreaLevel>(type: T) =>
  z.object({
    type: z.literal(type),
    ...PlaceCommon,
    name: z.string(),
    names: Names,
    local_identifier: z.string(),
    parents: ParentNames.describe('The names of the areas it lies in, "" where there is none'),
  });
export const SearchResult = z.discriminatedUnion('type', [
  AddressSearchResult,
  StreetSearchResult,
  PostcodeSearchResult,
  ...AREA_PLACE_TYPES.map(areaSearchResult),
]);
export type SearchResult = z.infer<typeof SearchResult>;
/** GET /search: addresses and places, best first. */
export const SearchResponse = z.array(SearchResult);
