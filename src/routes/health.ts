import type Router from '@koa/router';
import { NO_INDEXES } from '../repository/health.js';
import type { RouteDeps } from './context.js';

/** Open to load balancers: 200 while Elasticsearch answers, 503 otherwise. */
export function registerHealthRoute(router: Router, { health, logger }: RouteDeps): void {
  router.get('/health', async (ctx) => {
    try {
      const state = await health.check();
      ctx.body = {
        status: 'ok',
        elasticsearch: { version: state.version, cluster_status: state.clusterStatus },
        indexes: state.indexes,
      };
    } catch (error) {
      logger.warn({ err: error }, 'health check failed');
      ctx.status = 503;
      ctx.body = {
        status: 'unavailable',
        elasticsearch: { version: 'unknown', cluster_status: 'unreachable' },
        indexes: NO_INDEXES,
      };
    }
  });
}
