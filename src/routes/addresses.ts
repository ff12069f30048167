import type Router from '@koa/router';
import { addressFeature, featureCollection } from '../geojson/features.js';
import { respondCached } from '../http/conditional.js';
import { geojsonMediaType } from '../http/mediaType.js';
import { parseQuery, parseWith } from '../http/validate.js';
import { addressRecord } from '../features/address/addressRecords.js';
import { IdParam, NoQuery } from '../schemas/requests.js';
import type { RouteDeps } from '../endpoints/deps.js';

export function registerAddressRoutes(router: Router, deps: RouteDeps): void {
  router.get('/addresses/:id', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    parseQuery(NoQuery, ctx.query);
    ctx.body = addressRecord(await deps.addresses.get(id));
  });

  router.get('/addresses/:id/geojson', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    parseQuery(NoQuery, ctx.query);
    const mediaType = geojsonMediaType(ctx);
    const generations = await deps.generations.of(['addresses']);
    await respondCached(ctx, { generations, mediaType, bodies: deps.bodies }, async () => {
      const feature = addressFeature(await deps.addresses.get(id));
      ctx.type = mediaType;
      ctx.body = featureCollection([feature]);
    });
  });

  router.get('/buildings/:id/addresses', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    parseQuery(NoQuery, ctx.query);
    ctx.body = (await deps.addresses.ofBuilding(id)).map(addressRecord);
  });
}
