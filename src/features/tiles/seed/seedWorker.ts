/**
 * The seeding worker, a child process of the API (started by seed/tileSeeds.ts, its input the first IPC message):
 * reads the levels of one generation from Elasticsearch with its own client, cuts every tile of the range
 * (seedCut.ts) and sends them in batches of ~1 MB, then the end, and exits; meanwhile it says it is getting on at
 * least every PROGRESS_EVERY_MS of reading or cutting (the API ends a worker that goes silent: TILE_SEED_STALL_MS).
 * The API runs it at the lowest priority (nice 19) with its heap capped (--max-old-space-size).
 */

import { createElasticsearchClient } from '../../../../core/elasticsearch/client.js';
import { DEFAULT_MAX_COST } from '../tileRepository.js';
import { LevelTiles } from '../levelTiles.js';
import { levelFeatures } from '../levelSource.js';
import { LEVEL_LAYERS, type TileLevel, toleranceOf } from '../zoomTable.js';
import { extentOf, type SeedRange, tileCount } from './pyramid.js';
import { seededTiles } from './seedCut.js';
import {
  PROGRESS_EVERY_MS,
  type SeedBatch,
  type SeedDone,
  type SeedInput,
  type SeedProgress,
  type SeedStats,
} from './seedMessages.js';

/**
 * The levels whose extent is seeded: those of the dense zooms, from the municipalities down (the Netherlands and
 * Belgium). The provinces reach further (the bulk data holds Germany's Länder, without their municipalities): seeding
 * their extent cut 432,459 tiles instead of ~110,000, 173 MB instead of ~50 MB of compressed tiles, in 80 s, for tiles
 * that hold countries and provinces only, as cheap to cut on demand as any.
 */
const EXTENT_LEVELS = new Set<TileLevel>(['municipality', 'city', 'suburb', 'building']);

/** Bytes of compressed tiles per batch: a few hundred tiles, one message each ~1 MB. */
const BATCH_BYTES = 1 << 20;

async function seed(input: SeedInput): Promise<void> {
  const started = Date.now();
  const client = createElasticsearchClient({
    url: input.elasticsearch.url,
    requestTimeoutMs: input.elasticsearch.requestTimeoutMs,
  });
  let reported = started;
  // Tied to the work itself (a page read, a tile cut), not to a timer: a worker stuck in a read or a loop says nothing.
  const progress = () => {
    const now = Date.now();
    if (now - reported < PROGRESS_EVERY_MS) return;
    reported = now;
    const message: SeedProgress = { type: 'progress' };
    process.send!(message);
  };
  const levels = new Map<TileLevel, LevelTiles>();
  const deeper = [];
  try {
    for (const { level } of LEVEL_LAYERS) {
      const generation = level === 'building' ? input.buildings : input.areas;
      const features = await levelFeatures(client, level, generation, progress);
      if (EXTENT_LEVELS.has(level)) deeper.push(...features);
      levels.set(level, new LevelTiles(features, DEFAULT_MAX_COST, toleranceOf(level)));
      progress();
    }
  } finally {
    await client.close();
  }
  const box = extentOf(deeper);
  deeper.length = 0;
  const range: SeedRange | undefined = box && { maxZoom: input.maxZoom, box };
  const loaded = Date.now();
  const stats: SeedStats = {
    tiles: 0,
    range_tiles: range ? tileCount(range) : 0,
    identity_bytes: 0,
    encoded_bytes: {},
    load_ms: loaded - started,
    cut_ms: 0,
    worker_heap_mb: 0,
  };
  let batch: { keys: number[]; lengths: number[]; chunks: Buffer[]; bytes: number } = newBatch();
  const flush = () => {
    if (batch.keys.length === 0) return;
    const data = Buffer.concat(batch.chunks, batch.bytes);
    // Only its own bytes (concat may hand back a slice of a larger pool) go down the channel.
    const own = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    const message: SeedBatch = {
      type: 'batch',
      keys: Uint32Array.from(batch.keys),
      lengths: Uint32Array.from(batch.lengths),
      data: own,
    };
    process.send!(message);
    // A batch is progress too.
    reported = Date.now();
    batch = newBatch();
  };
  if (range) {
    for (const tile of seededTiles(levels, range, input.encodings, progress)) {
      stats.tiles++;
      stats.identity_bytes += tile.identityBytes;
      batch.keys.push(tile.key);
      tile.encoded.forEach((bytes, i) => {
        const encoding = input.encodings[i]!;
        stats.encoded_bytes[encoding] = (stats.encoded_bytes[encoding] ?? 0) + bytes.length;
        batch.lengths.push(bytes.length);
        batch.chunks.push(bytes);
        batch.bytes += bytes.length;
      });
      if (batch.bytes >= BATCH_BYTES) flush();
    }
    flush();
  }
  stats.cut_ms = Date.now() - loaded;
  stats.worker_heap_mb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  const done: SeedDone = { type: 'done', range, stats };
  process.send!(done, () => process.disconnect());
}

function newBatch() {
  return { keys: [] as number[], lengths: [] as number[], chunks: [] as Buffer[], bytes: 0 };
}

// A failure is an unhandled rejection: the process exits non-zero, which the API takes as a failed seeding.
process.once('message', (input: SeedInput) => void seed(input));
// The API is gone, or has dropped this seeding (a new generation): nothing left to cut for.
process.once('disconnect', () => process.exit(0));
