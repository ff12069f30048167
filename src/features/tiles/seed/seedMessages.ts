/**
 * What the API and its seeding worker tell each other (seed/seedWorker.ts, seed/tileSeeds.ts): the worker's input,
 * and its messages (over the child process' IPC channel, advanced serialization): batches of compressed tiles and
 * signs of progress, then the end.
 */
import type { SeedRange } from './pyramid.js';
import type { StoredEncoding } from './seedCut.js';

export interface SeedInput {
  elasticsearch: { url: string; requestTimeoutMs: number };
  /** The concrete generations the tiles are cut from (IndexGenerations' names). */
  areas: string;
  buildings: string;
  maxZoom: number;
  encodings: StoredEncoding[];
}

/**
 * Tiles `keys[i]` (pyramid.ts' tileKey), each in every encoding of the input in turn: `lengths[i * encodings + e]`
 * bytes of `data`, one after another.
 */
export interface SeedBatch {
  type: 'batch';
  keys: Uint32Array;
  lengths: Uint32Array;
  data: ArrayBuffer;
}

export interface SeedStats {
  /** Tiles that hold something (the rest of the range is empty). */
  tiles: number;
  /** Tiles of the range, empty ones included. */
  range_tiles: number;
  identity_bytes: number;
  /** Stored bytes per encoding. */
  encoded_bytes: Partial<Record<StoredEncoding, number>>;
  load_ms: number;
  cut_ms: number;
  /** The worker's heap at the end, MB. */
  worker_heap_mb: number;
}

export interface SeedDone {
  type: 'done';
  /** Undefined: no municipality or deeper level, nothing seeded. */
  range: SeedRange | undefined;
  stats: SeedStats;
}

/**
 * The worker is getting on (a page of a level read, tiles walked that held nothing): sent at most every
 * PROGRESS_EVERY_MS, so that the API's watchdog (tileSeeds.ts, TILE_SEED_STALL_MS) tells a slow worker from a hung one.
 */
export interface SeedProgress {
  type: 'progress';
}

/** The worker reports progress at most this often (any batch counts as progress too). */
export const PROGRESS_EVERY_MS = 1000;

export type SeedMessage = SeedBatch | SeedProgress | SeedDone;
