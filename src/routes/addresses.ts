import type Router from '@koa/router';
import { addressFeature, featureCollection } from '../geojson/features.js';
import { parseWith } from '../http/validate.js';
import { addressRecord } from '../records/addressRecords.js';
import { IdParam } from '../schemas/requests.js';
import type { RouteDeps } from './context.js';

export function registerAddressRoutes(router: Router, deps: RouteDeps): void {
  router.get('/addresses/:id', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    ctx.body = addressRecord(await deps.addresses.get(id));
  });

  router.get('/addresses/:id/geojson', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    ctx.body = featureCollection([addressFeature(await deps.addresses.get(id))]);
  });

  router.get('/buildings/:id/addresses', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    ctx.body = (await deps.addresses.ofBuilding(id)).map(addressRecord);
  });
}
