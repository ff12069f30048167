/** The boundary tiles cut ahead (src/features/tiles/seed/tileSeeds.ts): TILE_SEEDING, TILE_SEED_MAX_ZOOM, TILE_SEED_WORKER_MB. */
import { z } from 'zod';
import { booleanFlag, parseEnv, positiveInt } from '../../core/config/rules.js';

export interface TileSeedingOptions {
  /** TILE_SEEDING: false cuts every tile on demand (a laptop, a test). */
  enabled: boolean;
  /** TILE_SEED_MAX_ZOOM: the deepest zoom seeded. */
  maxZoom: number;
  /** TILE_SEED_WORKER_MB: the worker's heap cap (its old generation), MB. */
  workerHeapMb: number;
}

/** The pyramid's last zoom (src/features/tiles/zoomTable.ts' MAX_ZOOM; test/unit/tileSeeding.test.ts holds them equal). */
export const SEED_ZOOM_LIMIT = 14;

/**
 * The seeding worker's heap cap: on the bulk data it holds every level's features and indexes (~40 MB of heap in the
 * API, bench/probes/tileMemory.ts) and the garbage of cutting; measured in docs/tiles.md.
 */
export const DEFAULT_SEED_WORKER_MB = 384;

const TileSeedingEnvSchema = z.object({
  /** Cut the boundary tiles of each generation ahead, in a child process (src/features/tiles/seed); false: on demand. */
  TILE_SEEDING: booleanFlag.default(true),
  /** The deepest zoom seeded (deeper tiles are cut on demand). */
  TILE_SEED_MAX_ZOOM: z.coerce.number().int().min(0).max(SEED_ZOOM_LIMIT).default(SEED_ZOOM_LIMIT),
  /** The seeding worker's heap cap, MB: past it the worker ends and its generation's tiles stay cut on demand. */
  TILE_SEED_WORKER_MB: positiveInt.default(DEFAULT_SEED_WORKER_MB),
});

export function tileSeedingOf(source: NodeJS.ProcessEnv): TileSeedingOptions {
  const env = parseEnv(TileSeedingEnvSchema, source);
  return { enabled: env.TILE_SEEDING, maxZoom: env.TILE_SEED_MAX_ZOOM, workerHeapMb: env.TILE_SEED_WORKER_MB };
}
