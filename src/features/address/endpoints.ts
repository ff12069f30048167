import type Router from '@koa/router';
import { ApiError } from '../../http/errors.js';
import { parseWith } from '../../http/validate.js';
import { forwardRecord, lookupRecord } from './addressRecords.js';
import { StreetQueryBody } from '../../schemas/requests.js';
import { parseStreetQuery } from './streetRequest.js';
import type { RouteDeps } from '../../endpoints/deps.js';

export function registerStreetRoutes(router: Router, deps: RouteDeps): void {
  router.post('/lookup/street', async (ctx) => {
    const q = parseStreetQuery(parseWith(StreetQueryBody, ctx.request.body, 'body'));
    ctx.body = (await deps.addresses.lookup(q)).map(lookupRecord);
  });

  router.post('/geocode/forward', async (ctx) => {
    const q = parseStreetQuery(parseWith(StreetQueryBody, ctx.request.body, 'body'));
    const answer = await deps.addresses.forward(q);
    if (!answer) throw new ApiError(404, 'no_match', 'No address matches the street name and number');
    ctx.body = forwardRecord(answer);
  });
}
