import type Router from '@koa/router';
import { ApiError } from '../http/errors.js';
import { parseWith } from '../http/validate.js';
import type { ForwardMatch } from '../repository/addresses.js';
import { StreetQueryBody } from '../schemas/requests.js';
import { parseStreetQuery, type StreetQuery } from '../search/streetQuery.js';
import { editDistance } from '../text/editDistance.js';
import type { RouteDeps } from './context.js';

function parseBody(body: unknown): StreetQuery {
  const parsed = parseStreetQuery(parseWith(StreetQueryBody, body, 'body'));
  if (!parsed.ok)
    throw new ApiError(400, 'invalid_request', 'Invalid request body', [
      { path: parsed.path, message: parsed.message },
    ]);
  return parsed.query;
}

const NORMALIZED_CONFIDENCE = 0.97;
/** The street matched under another reading of an ambiguous abbreviation ("Cuypln" as Cuyplaan). */
const ALTERNATIVE_READING_CONFIDENCE = 0.93;
const NUMBER_CONFIDENCE = { exact: 1, other_suffix: 0.9, nearest: 0.5 } as const;
const POSTCODE_IGNORED_FACTOR = 0.9;
const AMBIGUOUS_FACTOR = 0.7;

/**
 * Confidence of a fuzzy street: 0.9 for a key within a hair of the query, less the larger the share of
 * letters that had to change (one typo in a 15-letter name: 0.87; two in 8 letters: 0.78), never below 0.6.
 */
export function fuzzyStreetConfidence(queryKey: string, matchedKey: string): number {
  const distance = editDistance(queryKey, matchedKey, 3);
  const length = Math.max(queryKey.length, matchedKey.length, 1);
  return Math.max(0.6, 0.9 - (0.5 * distance) / length);
}

/**
 * Scores and labels how the answer relates to what was asked, so a client can set its own threshold:
 * street (exact or none 1, normalized 0.97 or 0.93 under an alternative reading of an abbreviation, fuzzy 0.6-0.9 by edit distance) x number (exact 1, other suffix 0.9,
 * nearest 0.5) x postcode (ignored 0.9) x ambiguity (0.7 when the same street + number exists in another city
 * and the query gave no city, postcode or focus to choose).
 */
export function describeMatch(q: StreetQuery, match: ForwardMatch) {
  const { doc } = match;
  // "none": no street was asked (postcode + number), as `postcode: none` means no postcode was given.
  const street = !q.streetKey
    ? 'none'
    : match.street === 'fuzzy'
      ? 'fuzzy'
      : doc.streetname === q.streetRaw && doc.street_key === q.streetKey
        ? 'exact'
        : 'normalized';
  const number =
    match.number === 'nearest'
      ? 'nearest'
      : q.suffixKey !== undefined && doc.suffix_key !== q.suffixKey
        ? 'other_suffix'
        : 'exact';
  const postcode = !q.postcodeKey ? 'none' : doc.postcode_key === q.postcodeKey ? 'exact' : 'ignored';
  const streetConfidence =
    street === 'exact' || street === 'none'
      ? 1
      : street === 'fuzzy'
        ? fuzzyStreetConfidence(q.streetKey, doc.street_key)
        : doc.street_key === q.streetKey
          ? NORMALIZED_CONFIDENCE
          : ALTERNATIVE_READING_CONFIDENCE;
  const confidence =
    streetConfidence *
    NUMBER_CONFIDENCE[number] *
    (postcode === 'ignored' ? POSTCODE_IGNORED_FACTOR : 1) *
    (match.ambiguous ? AMBIGUOUS_FACTOR : 1);
  return { confidence: Math.round(confidence * 1000) / 1000, match: { street, number, postcode } as const };
}

export function registerStreetRoutes(router: Router, deps: RouteDeps): void {
  router.post('/lookup/street', async (ctx) => {
    const q = parseBody(ctx.request.body);
    const hits = await deps.addresses.lookup(q);
    ctx.body = hits.map((doc) => ({
      id: doc.id,
      streetname: doc.streetname,
      number: doc.number,
      suffix: doc.suffix,
      city: doc.city,
      postcode: doc.postcode,
      longitude: doc.location.lon,
      latitude: doc.location.lat,
    }));
  });

  router.post('/geocode/forward', async (ctx) => {
    const q = parseBody(ctx.request.body);
    const match = await deps.addresses.forward(q);
    if (!match) throw new ApiError(404, 'no_match', 'No address matches the street name and number');
    const { doc } = match;
    ctx.body = {
      id: doc.id,
      suburb_id: doc.suburb_id,
      building_id: doc.building_id,
      number: doc.number,
      suffix: doc.suffix,
      streetname: doc.streetname,
      postcode: doc.postcode,
      city: doc.city,
      longitude: doc.location.lon,
      latitude: doc.location.lat,
      ...describeMatch(q, match),
    };
  });
}
