/**
 * Cutting the boundary tiles ahead (src/features/tiles/seed), on its own: the worker seeds every tile of zooms 0 to
 * TILE_SEED_MAX_ZOOM (14) over the extent of the municipalities and deeper levels, and this prints how many tiles hold
 * something, their bytes per encoding, the worker's load and cut time and heap, and this process's heap, memory
 * outside the heap (the store) and RSS with the store (after GC, above what they were before).
 *
 *   ELASTICSEARCH_URL=... INDEX_PREFIX=bench-bulk- npx tsx --expose-gc bench/probes/tileSeed.ts
 */
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { tileSeedingOf } from '../../src/config/tileSeeding.js';
import { TileSeeds } from '../../src/features/tiles/seed/tileSeeds.js';
import { IndexGenerations } from '../../src/indexes/generations.js';

const url = process.env.ELASTICSEARCH_URL!;
const client = createElasticsearchClient({ url, requestTimeoutMs: 30_000 });
const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  gc?.();
  // `external` counts the ArrayBuffers (the store's batches) already.
  const { heapUsed, rss, external } = process.memoryUsage();
  return { heapUsed, rss, external };
};
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

const [areas, buildings] = await new IndexGenerations(client, process.env.INDEX_PREFIX ?? '').of([
  'areas',
  'buildings',
]);
const before = memory();
// TILE_SEED_MAX_ZOOM and the other TILE_SEED_* variables as the API reads them, seeding on.
const seeds = new TileSeeds({ ...tileSeedingOf(process.env), enabled: true }, { url, requestTimeoutMs: 30_000 });
seeds.see(areas!, buildings!);
let peakRss = 0;
while (seeds.status().state === 'seeding') {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const status = seeds.status();
// Let the worker's thread end before measuring what the store alone holds.
await new Promise((resolve) => setTimeout(resolve, 1000));
const after = memory();
console.log(
  JSON.stringify(
    {
      ...status,
      main_heap_mb_above: mb(after.heapUsed - before.heapUsed),
      main_external_mb_above: mb(after.external - before.external),
      main_rss_mb_above: mb(after.rss - before.rss),
      peak_rss_mb_while_seeding: mb(peakRss),
      rss_mb_after: mb(after.rss),
    },
    null,
    2,
  ),
);
await client.close();
