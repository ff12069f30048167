/**
 * Heap of the boundary tile index (src/features/tiles/), measured on an indexed sample: after each level's index is
 * built, after a client has walked every tile of zooms 0-10 over NL+BE (and 11-14 over Delft), and while a client
 * walks zoom-14 tiles inside a large country (the case the cut budget, DEFAULT_MAX_COST, bounds).
 *
 *   ELASTICSEARCH_URL=... INDEX_PREFIX=... npx tsx --expose-gc bench/probes/tileMemory.ts
 *
 * Not a load benchmark: one client, one process, in order.
 */
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { BoundaryTiles, DEFAULT_MAX_COST } from '../../src/features/tiles/tileRepository.js';
import { IndexGenerations } from '../../src/indexes/generations.js';
import { tilesOver } from '../../test/support/vectorTiles.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heapMb = () => {
  gc();
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
};

const client = createElasticsearchClient({ url: process.env.ELASTICSEARCH_URL!, requestTimeoutMs: 30_000 });
const maxCost = Number(process.env.MAX_COST ?? DEFAULT_MAX_COST);
const tiles = new BoundaryTiles(
  client,
  new IndexGenerations(client, process.env.INDEX_PREFIX ?? ''),
  undefined,
  undefined,
  maxCost,
);
const charged = () => Object.values(tiles.stats()).reduce((sum, s) => sum + s.cost, 0);
const report: Record<string, unknown> = { maxCost };
const start = heapMb();
report.baseMb = start;

let bytes = 0;
let count = 0;
async function walk(box: [number, number, number, number], from: number, to: number) {
  for (let z = from; z <= to; z++) {
    for (const { x, y } of tilesOver(box, z)) {
      const body = await tiles.tile(z, x, y);
      bytes += Buffer.isBuffer(body) ? body.length : 0;
      count++;
    }
  }
}

await tiles.tile(14, 8384, 5405); // every level's index (Delft at zoom 14)
report.indexesBuiltMb = Math.round((heapMb() - start) * 10) / 10;
await walk([2.5, 49.45, 7.25, 53.6], 0, 10);
await walk([4.32, 51.96, 4.41, 52.03], 11, 14);
report.walkedTiles = count;
report.walkedKb = Math.round(bytes / 1000);
report.afterWalkMb = Math.round((heapMb() - start) * 10) / 10;
report.walkCharged = charged();
report.bytesPerCharged = Math.round(((Number(report.afterWalkMb) - Number(report.indexesBuiltMb)) * 1e6) / charged());

// Zoom-14 tiles inside Germany (every tile holds a square of the country): the growth the budget bounds.
const [{ x: x0, y: y0 }] = tilesOver([10, 51, 10, 51], 14) as [{ x: number; y: number }];
const growth: Record<number, number> = {};
for (let i = 1; i <= 25_000; i++) {
  await tiles.tile(14, x0 + (i % 200), y0 + Math.floor(i / 200));
  if (i % 2500 === 0) growth[i] = Math.round((heapMb() - start) * 10) / 10;
}
report.interiorWalkMb = growth;
report.stats = tiles.stats();
console.log(JSON.stringify(report, null, 2));
await client.close();
