import type Router from '@koa/router';
import { parseQuery } from '../http/validate.js';
import { reverseRecord } from '../features/reverse/reverseRecord.js';
import { ReverseQuery } from '../schemas/requests.js';
import type { RouteDeps } from '../endpoints/deps.js';

export function registerReverseRoute(router: Router, deps: RouteDeps): void {
  router.get('/reverse', async (ctx) => {
    const { lat, lon, size, radius } = parseQuery(ReverseQuery, ctx.query);
    ctx.body = reverseRecord(await deps.reverse.reverse({ lat, lon }, radius, size));
  });
}
