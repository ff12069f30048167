import type { Client } from '@elastic/elasticsearch';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config/service.js';
import { SearchBatcher } from './elasticsearch/searchBatcher.js';
import { apiKeyAuth } from './http/auth.js';
import { errorEnvelope } from './http/errors.js';
import { jsonBody } from './http/jsonBody.js';
import { requestLog } from './http/requestLog.js';
import { AddressRepository } from './repository/addresses.js';
import { AreaRepository } from './repository/areas.js';
import { HealthRepository } from './repository/health.js';
import { registerAddressRoutes } from './routes/addresses.js';
import type { RouteDeps } from './routes/context.js';
import { registerHealthRoute } from './routes/health.js';
import { registerHierarchyRoutes } from './routes/hierarchy.js';
import { registerStreetRoutes } from './routes/streets.js';

export interface AppOptions {
  config: Pick<Config, 'apiKeyDigests' | 'bodyLimitBytes' | 'indexPrefix' | 'esBatchMax'>;
  client: Client;
  logger: Logger;
}

const OPEN_PATHS = new Set(['/health']);

export function createApp({ config, client, logger }: AppOptions): Koa {
  const app = new Koa();
  app.proxy = true;
  // Errors are answered and logged by our own middleware; Koa's default handler would print stack traces.
  app.silent = true;

  const searcher = new SearchBatcher(client, config.esBatchMax);
  const deps: RouteDeps = {
    addresses: new AddressRepository(client, searcher, config.indexPrefix),
    areas: new AreaRepository(client, searcher, config.indexPrefix),
    health: new HealthRepository(client, config.indexPrefix),
    logger,
  };
  const router = new Router();
  registerHealthRoute(router, deps);
  registerStreetRoutes(router, deps);
  registerAddressRoutes(router, deps);
  registerHierarchyRoutes(router, deps);

  app.use(requestLog(logger));
  app.use(errorEnvelope);
  app.use(apiKeyAuth(config.apiKeyDigests, OPEN_PATHS));
  app.use(jsonBody(config.bodyLimitBytes));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
