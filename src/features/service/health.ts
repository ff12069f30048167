import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GuardStats } from '../../../core/elasticsearch/circuitBreaker.js';
import type { BodyCache } from '../../http/bodyCache.js';
import type { ServiceState } from '../../http/serviceState.js';
import { type BackendHealth, type HealthRepository, NO_INDEXES } from '../../indexes/health.js';

type Readiness = 'ok' | 'not_loaded' | 'unavailable' | 'draining';

/** What the health endpoints read (src/wiring/services.ts builds them). */
export interface HealthServices {
  health: HealthRepository;
  /** Draining after SIGTERM: readiness answers 503. */
  state: ServiceState;
  logger: Logger;
  /** Rendered boundary and hierarchy answers, shown to keyed callers. */
  bodies: BodyCache;
  /** The circuit breaker and load bound around Elasticsearch, for /health (undefined: the client has none). */
  guard: () => GuardStats | undefined;
  /** Where cutting the boundary tiles ahead stands (src/features/tiles/seed/tileSeeds.ts' status), shown with the details. */
  tileSeeding?: () => { state: string };
}

/** Whether the service can serve, from the shared recent check (src/indexes/health.ts); undefined: no answer. */
export async function readiness({
  health,
  state,
  logger,
}: HealthServices): Promise<[Readiness, BackendHealth | undefined]> {
  if (state.draining) return ['draining', undefined];
  try {
    const backend = await health.recent();
    const loaded = Object.values(backend.indexes).every((index) => index !== null);
    return [loaded ? 'ok' : 'not_loaded', backend];
  } catch (error) {
    logger.warn({ err: error }, 'health check failed');
    return ['unavailable', undefined];
  }
}

/**
 * The figures (the Elasticsearch version, index names and sizes, the body cache, the load on Elasticsearch, the tile
 * seeding) help an attacker, who could watch the effect of its own load, more than a load balancer, which needs the
 * status alone: keyed callers only. Not "loopback" either: behind a reverse proxy on the same host every client is.
 */
const mayShowDetails = (ctx: Context) => ctx.state.keyFingerprint !== undefined;

/** The process answers: no Elasticsearch call, so a liveness probe never restarts a process for a slow cluster. */
export const serveLiveness = (): Middleware => (ctx) => {
  ctx.body = { status: 'ok' };
};

/** For a load balancer: the status of /health without the details, from the shared recent check. */
export const serveReadiness =
  (deps: HealthServices): Middleware =>
  async (ctx) => {
    const [status] = await readiness(deps);
    ctx.status = status === 'ok' ? 200 : 503;
    ctx.body = { status };
  };

/**
 * 200 "ok" while Elasticsearch answers and every alias points at an index; 503 "not_loaded" while Elasticsearch
 * answers but an index is missing (the API could only answer 503), "unavailable" while it does not answer,
 * "draining" from SIGTERM on. Without a valid key that status is all (as /health/ready); with one, the details.
 */
export function serveHealth(deps: HealthServices): Middleware {
  const { bodies, guard, tileSeeding } = deps;
  return async (ctx) => {
    const [status, backend] = await readiness(deps);
    ctx.status = status === 'ok' ? 200 : 503;
    if (!mayShowDetails(ctx)) {
      ctx.body = { status };
      return;
    }
    const stats = guard();
    ctx.body = {
      status,
      elasticsearch: {
        version: backend?.version ?? 'unknown',
        cluster_status: backend?.clusterStatus ?? 'unreachable',
      },
      indexes: backend?.indexes ?? NO_INDEXES,
      body_cache: bodies.stats(),
      ...(tileSeeding ? { tile_seeding: tileSeeding() } : {}),
      guard: { breaker: stats?.breaker ?? 'closed', in_flight: stats?.in_flight ?? 0, queued: stats?.queued ?? 0 },
    };
  };
}
