/**
 * The boundary tiles cut ahead (src/features/tiles/seed/tileSeeds.ts): TILE_SEEDING, TILE_SEED_MAX_ZOOM,
 * TILE_SEED_WORKER_MB, TILE_SEED_STALL_MS, TILE_SEED_MAX_BYTES.
 */
import { z } from 'zod';
import { booleanFlag, parseEnv, positiveInt } from '../../core/config/rules.js';

export interface TileSeedingOptions {
  /** TILE_SEEDING: false cuts every tile on demand (a laptop, a test). */
  enabled: boolean;
  /** TILE_SEED_MAX_ZOOM: the deepest zoom seeded. */
  maxZoom: number;
  /** TILE_SEED_WORKER_MB: the worker's heap cap (its old generation), MB. */
  workerHeapMb: number;
  /** TILE_SEED_STALL_MS: a worker that reports no progress for this long is ended (0: never). */
  stallMs: number;
  /** TILE_SEED_MAX_BYTES: the most bytes the seeded store holds (every encoding); past it the seeding stops. */
  maxBytes: number;
}

/** The pyramid's last zoom (src/features/tiles/zoomTable.ts' MAX_ZOOM; test/unit/src/config/tileSeeding.test.ts holds them equal). */
export const SEED_ZOOM_LIMIT = 14;

/**
 * The seeding worker's heap cap: on the bulk data it holds every level's features and indexes (~40 MB of heap in the
 * API, bench/probes/tileMemory.ts) and the garbage of cutting; measured in docs/tiles.md.
 */
export const DEFAULT_SEED_WORKER_MB = 384;

/**
 * How long the worker may go without reporting progress (it reports at most once a second while it reads a page of
 * a level or walks a tile): on the bulk data a level reads in under a second and a tile cuts in well under one, so a
 * minute of silence is a worker that hangs (an Elasticsearch read that never ends, a loop), not one that is slow at
 * nice 19 on a busy machine.
 */
export const DEFAULT_SEED_STALL_MS = 60_000;

/** The store's cap: 128 MiB, 2.5 times the bulk data's 51 MB (docs/tiles.md), so it bounds a runaway, not the data. */
export const DEFAULT_SEED_MAX_BYTES = 128 * 1024 * 1024;

export const TileSeedingEnvSchema = z.object({
  /** Cut the boundary tiles of each generation ahead, in a child process (src/features/tiles/seed); false: on demand. */
  TILE_SEEDING: booleanFlag.default(true),
  /** The deepest zoom seeded (deeper tiles are cut on demand). */
  TILE_SEED_MAX_ZOOM: z.coerce.number().int().min(0).max(SEED_ZOOM_LIMIT).default(SEED_ZOOM_LIMIT),
  /** The seeding worker's heap cap, MB: past it the worker ends and its generation's tiles stay cut on demand. */
  TILE_SEED_WORKER_MB: positiveInt.default(DEFAULT_SEED_WORKER_MB),
  /** A worker silent this long is ended and its generation's tiles stay cut on demand; 0: no watchdog. */
  TILE_SEED_STALL_MS: z.coerce.number().int().min(0).default(DEFAULT_SEED_STALL_MS),
  /** The seeded store's cap in bytes: past it the seeding stops and the rest is cut on demand. */
  TILE_SEED_MAX_BYTES: positiveInt.default(DEFAULT_SEED_MAX_BYTES),
});

export function tileSeedingOf(source: NodeJS.ProcessEnv): TileSeedingOptions {
  const env = parseEnv(TileSeedingEnvSchema, source);
  return {
    enabled: env.TILE_SEEDING,
    maxZoom: env.TILE_SEED_MAX_ZOOM,
    workerHeapMb: env.TILE_SEED_WORKER_MB,
    stallMs: env.TILE_SEED_STALL_MS,
    maxBytes: env.TILE_SEED_MAX_BYTES,
  };
}
