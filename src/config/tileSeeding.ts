/** The boundary tiles cut ahead (src/features/tiles/seed/tileSeeds.ts): TILE_SEEDING, TILE_SEED_MAX_ZOOM, TILE_SEED_WORKER_MB. */

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
