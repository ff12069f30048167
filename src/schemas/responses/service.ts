/** The service's own endpoints: GET /health (and its probes), /openapi.json, /metrics. */
import { z } from 'zod';

/**
 * ok: serving; not_loaded: Elasticsearch answers but an index is missing; unavailable: it does not answer;
 * draining: the process is shutting down (SIGTERM) and answers the requests it has.
 */
export const Readiness = z.object({ status: z.enum(['ok', 'not_loaded', 'unavailable', 'draining']) });
export const Liveness = z.object({ status: z.literal('ok') });

/**
 * GET /health: `status` for everyone; every other field only for a caller with a valid key (without one the answer
 * is `/health/ready`'s: the figures help an attacker more than a load balancer).
 */
export const Health = z.object({
  status: Readiness.shape.status,
  elasticsearch: z
    .object({
      version: z.string(),
      cluster_status: z.string(),
    })
    .optional(),
  /** Per index kind: its alias, concrete index and documents; `null` while the alias points at no index. */
  indexes: z
    .record(z.string(), z.object({ alias: z.string(), index: z.string(), documents: z.number() }).nullable())
    .optional(),
  /** The rendered-body cache of boundary and hierarchy answers (BODY_CACHE_BYTES). */
  body_cache: z.object({ entries: z.number().int(), bytes: z.number().int(), max_bytes: z.number().int() }).optional(),
  /**
   * The boundary tiles cut ahead for the live generation (TILE_SEEDING, docs/tiles.md): keyed callers only.
   * `off` when seeding is turned off; the counts once tiles arrive, `stats` once it is complete. `failed`, `stalled`
   * (no progress for TILE_SEED_STALL_MS: the worker was killed) and `capped` (the store reached TILE_SEED_MAX_BYTES)
   * say why in `reason`; the tiles not stored are then cut on demand.
   */
  tile_seeding: z
    .object({
      state: z.enum(['off', 'seeding', 'complete', 'failed', 'stalled', 'capped']),
      generation: z.string().optional(),
      reason: z.string().optional(),
      tiles: z.number().int().optional(),
      bytes: z.number().int().optional(),
      seconds: z.number().optional(),
      stats: z
        .object({
          tiles: z.number().int(),
          range_tiles: z.number().int(),
          identity_bytes: z.number().int(),
          encoded_bytes: z.record(z.string(), z.number().int()),
          load_ms: z.number(),
          cut_ms: z.number(),
          worker_heap_mb: z.number(),
        })
        .optional(),
    })
    .optional(),
  /** The circuit breaker and load bound around Elasticsearch (BREAKER_*, MAX_IN_FLIGHT_SEARCHES, MAX_QUEUED_REQUESTS). */
  guard: z
    .object({
      breaker: z.enum(['closed', 'open']),
      in_flight: z.number().int(),
      queued: z.number().int(),
    })
    .optional(),
});

/** GET /openapi.json: an OpenAPI 3.1 document (its own shape is the OpenAPI specification's). */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** GET /metrics: the Prometheus text exposition format. */
export const MetricsText = z.string().describe('Prometheus text format');
