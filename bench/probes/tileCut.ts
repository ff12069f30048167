/**
 * What a new (uncached) boundary tile costs in process, without HTTP: the tiles of zooms 12-14 over NL+BE that the
 * bench's uncached scenario asks (shuffled, seeded, each once), cut and encoded one after another on one thread,
 * then compressed as the service would (gzip and brotli at a few levels). It prints the distribution of the cut
 * (p50/p99/max, how many over 50 ms), the time spent in the levels' index rebuilds, and bytes and ms per encoding.
 *
 *   ELASTICSEARCH_URL=... INDEX_PREFIX=bench-bulk- npx tsx bench/probes/tileCut.ts [tiles]
 *
 * Not a load benchmark: one client, one process, in order.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { BoundaryTiles } from '../../src/features/tiles/tileRepository.js';
import { IndexGenerations } from '../../src/indexes/generations.js';
import { tilesOver } from '../../test/support/vectorTiles.js';
import { seededRandom } from '../support/random.js';

const NL_BE: [number, number, number, number] = [2.5, 49.45, 7.25, 53.6];
const count = Number(process.argv[2] ?? 5000);
const client = createElasticsearchClient({ url: process.env.ELASTICSEARCH_URL!, requestTimeoutMs: 30_000 });
const tiles = new BoundaryTiles(client, new IndexGenerations(client, process.env.INDEX_PREFIX ?? ''));

const random = seededRandom(38);
const all = [12, 13, 14].flatMap((z) => tilesOver(NL_BE, z).map(({ x, y }) => ({ z, x, y })));
for (let i = all.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [all[i], all[j]] = [all[j]!, all[i]!];
}
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    mean: +(sum / values.length).toFixed(3),
    p50: +quantile(sorted, 0.5).toFixed(3),
    p99: +quantile(sorted, 0.99).toFixed(3),
    max: +sorted[sorted.length - 1]!.toFixed(1),
    over50: values.filter((v) => v > 50).length,
  };
};

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
};
const baseMb = heapMb();
// Every level's index built before timing (as the bench's warm-up does).
let started = performance.now();
await tiles.tile(14, 8384, 5405);
const buildMs = Math.round(performance.now() - started);
const builtMb = +(heapMb() - baseMb).toFixed(1);

const cut: number[] = [];
/** CPU time of each tile (user + system): the wall time less what other processes took of the shared cores. */
const cpu: number[] = [];
const slow: string[] = [];
const bodies: Buffer[] = [];
started = performance.now();
for (const { z, x, y } of all.slice(0, count)) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const body = await tiles.tile(z, x, y);
  const c1 = process.cpuUsage(c0);
  cut.push(performance.now() - t0);
  cpu.push((c1.user + c1.system) / 1000);
  if (cpu.at(-1)! > 20) slow.push(`${z}/${x}/${y} ${cpu.at(-1)!.toFixed(0)} ms cpu`);
  // No seeds here: every tile is cut now (a Buffer).
  if (Buffer.isBuffer(body)) bodies.push(body);
}
const walkMs = performance.now() - started;
const walkedMb = +(heapMb() - baseMb).toFixed(1);

const encoders: Record<string, (b: Buffer) => Buffer> = {
  'gzip 1': (b) => gzipSync(b, { level: 1 }),
  'gzip 6': (b) => gzipSync(b, { level: 6 }),
  'gzip 9': (b) => gzipSync(b, { level: 9 }),
  'br 4': (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  'br 6': (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  'br 11': (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
};
const identity = bodies.reduce((n, b) => n + b.length, 0);
const encodings: Record<string, { bytes: number; ratio: number; msPerTile: number }> = {};
for (const [name, encode] of Object.entries(encoders)) {
  let bytes = 0;
  const t0 = performance.now();
  for (const body of bodies) bytes += encode(body).length;
  const ms = performance.now() - t0;
  encodings[name] = { bytes, ratio: +(bytes / identity).toFixed(3), msPerTile: +(ms / bodies.length).toFixed(3) };
}
const sizes = bodies.map((b) => b.length).sort((a, b) => a - b);

console.log(
  JSON.stringify(
    {
      tiles: Math.min(count, all.length),
      withContent: bodies.length,
      buildMs,
      heapMb: gc ? { built: builtMb, walked: walkedMb } : 'run with --expose-gc',
      tilesPerSecond: Math.round(cut.length / (walkMs / 1000)),
      cutMs: summary(cut),
      cutCpuMs: summary(cpu),
      slowCpu: slow.slice(0, 10),
      identityBytes: { mean: Math.round(identity / bodies.length), p50: quantile(sizes, 0.5), max: sizes.at(-1) },
      underCompressThreshold: sizes.filter((s) => s < 1024).length,
      encodings,
      stats: tiles.stats(),
    },
    null,
    2,
  ),
);
await client.close();
