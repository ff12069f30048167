import type Router from '@koa/router';
import { ApiError } from '../http/errors.js';
import { parseWith } from '../http/validate.js';
import type { ForwardMatch } from '../repository/addresses.js';
import { StreetQueryBody } from '../schemas/requests.js';
import { parseStreetQuery, type StreetQuery } from '../search/streetQuery.js';
import type { RouteDeps } from './context.js';

function parseBody(body: unknown): StreetQuery {
  const parsed = parseStreetQuery(parseWith(StreetQueryBody, body, 'body'));
  if (!parsed.ok) throw new ApiError(400, 'invalid_request', 'Invalid request body', [{ path: parsed.path, message: parsed.message }]);
  return parsed.query;
}

const STREET_CONFIDENCE = { exact: 1, normalized: 0.97, fuzzy: 0.8 } as const;
const NUMBER_CONFIDENCE = { exact: 1, other_suffix: 0.9, nearest: 0.5 } as const;

/** Scores and labels how the answer relates to what was asked, so a client can set its own threshold. */
export function describeMatch(q: StreetQuery, match: ForwardMatch) {
  const { doc } = match;
  const street = match.street === 'fuzzy' ? 'fuzzy' : !q.streetKey || doc.streetname === q.streetRaw ? 'exact' : 'normalized';
  const number =
    match.number === 'nearest' ? 'nearest' : q.suffixKey !== undefined && doc.suffix_key !== q.suffixKey ? 'other_suffix' : 'exact';
  const postcode = !q.postcodeKey ? 'none' : doc.postcode_key === q.postcodeKey ? 'exact' : 'ignored';
  const confidence = STREET_CONFIDENCE[street] * NUMBER_CONFIDENCE[number] * (postcode === 'ignored' ? 0.9 : 1);
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
