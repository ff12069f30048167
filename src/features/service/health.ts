import type { Middleware } from 'koa';
import { NO_INDEXES } from '../../repository/health.js';
import type { ServiceDeps } from '../../endpoints/deps.js';

/**
 * Open to load balancers: 200 "ok" while Elasticsearch answers and every alias points at an index; 503
 * "not_loaded" while Elasticsearch answers but an index is missing (the API could only answer 503), 503
 * "unavailable" while it does not answer.
 */
export function serveHealth({ health, logger, bodies, guard }: ServiceDeps): Middleware {
  const guardState = () => {
    const stats = guard();
    return { breaker: stats?.breaker ?? 'closed', in_flight: stats?.in_flight ?? 0, queued: stats?.queued ?? 0 };
  };
  return async (ctx) => {
    try {
      const state = await health.check();
      const loaded = Object.values(state.indexes).every((index) => index !== null);
      ctx.status = loaded ? 200 : 503;
      ctx.body = {
        status: loaded ? 'ok' : 'not_loaded',
        elasticsearch: { version: state.version, cluster_status: state.clusterStatus },
        indexes: state.indexes,
        body_cache: bodies.stats(),
        guard: guardState(),
      };
    } catch (error) {
      logger.warn({ err: error }, 'health check failed');
      ctx.status = 503;
      ctx.body = {
        status: 'unavailable',
        elasticsearch: { version: 'unknown', cluster_status: 'unreachable' },
        indexes: NO_INDEXES,
        body_cache: bodies.stats(),
        guard: guardState(),
      };
    }
  };
}
