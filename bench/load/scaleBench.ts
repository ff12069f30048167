/**
 * `npm run bench:scale [-- --sizes 1,2,4] [--small] [--duration S] [--warmup S] [--rate R] [--connections N]
 *  [--repeat N] [--only REGEX] [--keep] [--delete]`
 *
 * The scale model: how latency, disk and memory grow with the number of addresses. Indexes the bulk data (1x) with
 * the real indexer under its own bench prefix, builds 2x, 4x (any --sizes) from it by copying (scroll + `_bulk`: the addresses
 * and streets copied under new ids into cities renamed "<city>~k", clearly synthetic: bench/support/scaleReplicas.ts),
 * and at each size drives forward (exact), reverse, free-text search and autocomplete through the API (a separate
 * production-mode process), once at a fixed rate (latency: --rate, default 100 req/s) and once as fast as it goes
 * (throughput, --connections). Only the measured size's indexes are open meanwhile, so the page cache and the heap
 * hold that size alone. Records index size on disk, documents and segments per index kind, and the node's heap.
 * `--small` does the same on the Delft sample (8.9k addresses) in a couple of minutes: a smoke check.
 *
 * Elasticsearch as for `npm run bench`: ELASTICSEARCH_URL when set, else a node started for the run (4 GB heap with
 * the local launcher unless ES_HEAP says otherwise). Built sizes are reused by a rerun; they are deleted at the end
 * unless --keep (`--delete` removes kept ones). Prints the tables and writes JSON to bench/results/.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Client } from '@elastic/elasticsearch';
import { liveIndexes } from '../../indexer/generations/generations.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { loadDevelopmentConfig } from '../../core/config/development.js';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { startApiProcess } from '../support/apiProcess.js';
import { freeTextPaths, keystrokePaths, reversePaths, sampleAddresses, streetBodies } from '../support/benchQueries.js';
import { ensureIndexed } from '../support/datasets.js';
import { drive, formatTable, type LoadSettings, type Row, type Scenario } from '../support/loadDriver.js';
import { elasticsearchPid, waitUntilQuiet } from '../support/processCpu.js';
import { seededRandom } from '../support/random.js';
import {
  deletePrefix,
  ensureReplicated,
  heapStats,
  type HeapStats,
  indexStats,
  type IndexKindStats,
} from '../support/scaleIndexes.js';
import { scalePrefix } from '../support/scaleReplicas.js';
import { BENCH_API_KEY, BENCH_SEED, REPO_ROOT, RESULTS_DIR } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,2,4' },
    small: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    /** Fixed request rate of the latency runs: low enough that no size queues, so p50 is service time. */
    rate: { type: 'string', default: '100' },
    connections: { type: 'string', default: '16' },
    queries: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    /** Passes over all sizes (a second pass shows how much of a difference is noise on a shared machine). */
    repeat: { type: 'string', default: '1' },
    only: { type: 'string' },
    /** Keep the bench indexes (a rerun then reuses them instead of building again). */
    keep: { type: 'boolean', default: false },
    /** Only delete the bench indexes of every size (what --keep left behind), then exit. */
    delete: { type: 'boolean', default: false },
  },
});
const sizes = args.sizes
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
if (sizes.some((s) => !Number.isInteger(s) || s < 1 || s > 16)) throw new Error('--sizes: integers from 1 to 16');
const settings: LoadSettings = {
  connections: Number(args.connections),
  duration: Number(args.duration),
  warmup: Number(args.warmup),
};
const rate = Number(args.rate);
const seed = Number(args.seed);
const only = args.only ? new RegExp(args.only) : undefined;
const dataset = args.small
  ? { name: 'delft', manifestPath: join(REPO_ROOT, 'datasets/sample.json') }
  : { name: 'bulk', manifestPath: join(REPO_ROOT, 'datasets/bulk.json') };
const log = (m: string) => console.error(`[scale] ${m}`);

interface ScaleRow extends Row {
  pass: number;
  size: number;
  addresses: number;
}

interface SizeStats {
  size: number;
  prefix: string;
  addresses: number;
  kinds: IndexKindStats[];
  heap: HeapStats;
  /** Of the first 100 free-text queries, how many found the drawn address first (replicas must stay findable). */
  search_first_hit: number;
  /** 1/5/15-minute load average when this size's runs began: the machine is shared, so say how busy it was. */
  load_average: number[];
}

/** The live concrete indexes of a prefix (one per kind). */
async function indexesOf(client: Client, prefix: string): Promise<string[]> {
  const live = await liveIndexes(client, prefix);
  return INDEX_KINDS.flatMap((kind) => live[kind] ?? []);
}

/**
 * Closes the other sizes' indexes and opens this one's: the measured size alone in the heap and the page cache,
 * as if it were the deployment.
 */
async function openOnly(client: Client, prefixes: string[], current: string): Promise<void> {
  for (const prefix of prefixes) {
    if (prefix === current) continue;
    const indexes = await indexesOf(client, prefix);
    if (indexes.length) await client.indices.close({ index: indexes.join(','), wait_for_active_shards: 0 });
  }
  const indexes = await indexesOf(client, current);
  await client.indices.open({ index: indexes.join(','), wait_for_active_shards: 1 });
  await client.cluster.health({ index: indexes.join(','), wait_for_status: 'yellow', timeout: '120s' });
}

async function openAll(client: Client, prefixes: string[]): Promise<void> {
  for (const prefix of prefixes) {
    const indexes = await indexesOf(client, prefix);
    if (indexes.length) await client.indices.open({ index: indexes.join(','), wait_for_active_shards: 1 });
  }
}

/** Disk for a size: its store and as much again while force-merging, checked against the node's free space. */
async function assertDiskFor(client: Client, size: number, oneX: IndexKindStats[]): Promise<void> {
  const res = await client.nodes.stats({ node_id: '_local', metric: 'fs' });
  const available = Object.values(res.nodes)[0]?.fs?.total?.available_in_bytes;
  const needed = 2 * size * oneX.reduce((sum, k) => sum + k.store_bytes, 0);
  if (available !== undefined && available < needed) {
    throw new Error(
      `x${size} needs about ${gb(needed)} GB free on the Elasticsearch data disk; ${gb(available)} GB is`,
    );
  }
}

const gb = (bytes: number) => (bytes / 1e9).toFixed(2);
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** How many of the first 100 free-text queries answer with the drawn address first. */
async function searchFirstHits(apiUrl: string, paths: string[], ids: string[]): Promise<number> {
  let hits = 0;
  for (let i = 0; i < Math.min(100, paths.length); i++) {
    const res = await fetch(`${apiUrl}${paths[i]}`, { headers: { 'x-api-key': BENCH_API_KEY } });
    const body = (await res.json()) as { id?: string }[];
    if (Array.isArray(body) && body[0]?.id === ids[i]) hits++;
  }
  return hits;
}

async function measureSize(
  client: Client,
  esUrl: string,
  size: number,
  pass: number,
  children: ChildProcess[],
): Promise<{ rows: ScaleRow[]; stats: SizeStats }> {
  const prefix = scalePrefix(dataset.name, size);
  const loadAverage = loadavg().map((l) => Math.round(l * 10) / 10);
  const addresses = (await client.count({ index: aliasName(prefix, 'addresses') })).count;
  const drawn = await sampleAddresses(client, prefix, Number(args.queries), seed);
  const api = await startApiProcess({ elasticsearchUrl: esUrl, indexPrefix: prefix, apiKey: BENCH_API_KEY });
  children.push(api.process);
  try {
    const headers = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
    const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
    const forwardBodies = streetBodies(drawn, false, seededRandom(seed)).map((b) => ({
      method: 'POST' as const,
      path: '/geocode/forward',
      body: JSON.stringify(b),
    }));
    const searchPaths = freeTextPaths(drawn);
    const scenarios: Scenario[] = [
      { name: 'forward exact', target: 'api', url: api.url, headers, requests: forwardBodies },
      { name: 'reverse', target: 'api', url: api.url, headers, requests: get(reversePaths(drawn, seed)) },
      { name: 'search free text', target: 'api', url: api.url, headers, requests: get(searchPaths) },
      { name: 'autocomplete keystrokes', target: 'api', url: api.url, headers, requests: get(keystrokePaths(drawn)) },
    ].filter((s) => !only || only.test(s.name)) as Scenario[];
    const searchFirstHit = await searchFirstHits(
      api.url,
      searchPaths,
      drawn.map((a) => a.id),
    );
    const rows: ScaleRow[] = [];
    for (const scenario of scenarios) {
      for (const overallRate of rate > 0 ? [rate, undefined] : [undefined]) {
        log(`pass ${pass} x${size}: ${scenario.name} at ${overallRate ?? 'max'} req/s`);
        rows.push({ pass, size, addresses, ...(await drive(settings, scenario, overallRate)) });
      }
    }
    return {
      rows,
      stats: {
        size,
        prefix,
        addresses,
        kinds: await indexStats(client, prefix),
        heap: await heapStats(client),
        search_first_hit: searchFirstHit,
        load_average: loadAverage,
      },
    };
  } finally {
    api.process.kill('SIGTERM');
  }
}

function printRows(rows: ScaleRow[]) {
  const header = ['pass', 'size', 'addresses', 'scenario', 'rate', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx'];
  console.log(
    formatTable(
      header,
      rows.map((r) => [
        String(r.pass),
        `x${r.size}`,
        String(r.addresses),
        r.scenario,
        r.rate_limit ? String(r.rate_limit) : 'max',
        String(r.requests_per_s),
        String(r.p50_ms),
        String(r.p99_ms),
        String(r.errors),
        String(r.non2xx),
      ]),
    ),
  );
}

function printStats(stats: SizeStats[]) {
  const header = [
    'size',
    'addresses',
    ...INDEX_KINDS.map((k) => `${k} MB`),
    'total MB',
    'bytes/address',
    'segments',
    'segment mem MB',
    'heap used MB',
    'heap max MB',
    'search 1st hit',
  ];
  console.log(
    formatTable(
      header,
      stats.map((s) => {
        const total = s.kinds.reduce((sum, k) => sum + k.store_bytes, 0);
        const segmentMemory = s.kinds.reduce((sum, k) => sum + (k.segment_memory_bytes ?? 0), 0);
        return [
          `x${s.size}`,
          String(s.addresses),
          ...INDEX_KINDS.map((kind) => mb(s.kinds.find((k) => k.kind === kind)!.store_bytes)),
          mb(total),
          String(Math.round(total / s.addresses)),
          String(s.kinds.reduce((sum, k) => sum + k.segments, 0)),
          mb(segmentMemory),
          mb(s.heap.heap_used_bytes),
          mb(s.heap.heap_max_bytes),
          `${s.search_first_hit}/100`,
        ];
      }),
    ),
  );
}

/** p50 of exact forward at the fixed rate, smallest size against the largest, per pass (the issue's target). */
function forwardGrowth(rows: ScaleRow[]) {
  const passes = [...new Set(rows.map((r) => r.pass))];
  return passes.flatMap((pass) => {
    const fixed = rows.filter((r) => r.pass === pass && r.scenario === 'forward exact' && r.rate_limit);
    if (fixed.length < 2) return [];
    const first = fixed[0]!;
    const last = fixed[fixed.length - 1]!;
    const growth = Math.round((last.p50_ms - first.p50_ms) * 100) / 100;
    return [{ pass, from: first.size, to: last.size, p50_from: first.p50_ms, p50_to: last.p50_ms, growth_ms: growth }];
  });
}

async function main() {
  const started = Date.now();
  // The larger sizes hold up to 9 M addresses: a 4 GB heap unless ES_HEAP says otherwise.
  const heap = loadDevelopmentConfig().launcher.heap ?? (args.small ? '1g' : '4g');
  // A 4 GB heap is touched in full at start (AlwaysPreTouch): on a busy shared machine that outlasts the default 3 min.
  const es = await startElasticsearch({ heap, startupTimeoutMs: 900_000, log: (m) => console.error(`[es] ${m}`) });
  log(`Elasticsearch ${es.version} (${es.kind}) at ${es.url}`);
  const client = createElasticsearchClient({ url: es.url, requestTimeoutMs: 600_000 });
  const children: ChildProcess[] = [];
  const prefixes = [1, ...sizes].map((size) => scalePrefix(dataset.name, size));
  if (args.delete) {
    for (const prefix of new Set(prefixes)) await deletePrefix(client, prefix);
    log(`deleted the bench indexes under ${[...new Set(prefixes)].join(', ')}`);
    await client.close();
    await es.stop();
    return;
  }
  try {
    const source = scalePrefix(dataset.name, 1);
    await openAll(client, prefixes);
    await ensureIndexed(
      client,
      { name: `${dataset.name} x1`, manifestPath: dataset.manifestPath, prefix: source },
      log,
    );
    const oneX = await indexStats(client, source);
    for (const size of sizes.filter((s) => s > 1)) {
      const prefix = scalePrefix(dataset.name, size);
      await assertDiskFor(client, size, oneX);
      await ensureReplicated(client, source, prefix, size, log);
    }
    const esPid = await elasticsearchPid(client);
    const rows: ScaleRow[] = [];
    const stats: SizeStats[] = [];
    for (let pass = 1; pass <= Number(args.repeat); pass++) {
      for (const size of sizes) {
        await openOnly(client, [...new Set(prefixes)], scalePrefix(dataset.name, size));
        await waitUntilQuiet(esPid, log);
        const measured = await measureSize(client, es.url, size, pass, children);
        rows.push(...measured.rows);
        if (pass === 1) stats.push(measured.stats);
      }
    }
    await openAll(client, prefixes);

    console.log(
      `\nScale model, dataset ${dataset.name}: latency at ${rate} req/s and throughput with ${settings.connections} connections,` +
        ` ${settings.duration}s per run after ${settings.warmup}s warm-up; Elasticsearch ${es.version}` +
        ` (${es.kind === 'external' ? 'external node' : `heap ${heap}`}); load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}\n`,
    );
    printRows(rows);
    console.log('\nIndexes by size (primaries, after force-merge; heap used after the runs of that size)\n');
    printStats(stats);
    const growth = forwardGrowth(rows);
    for (const g of growth) {
      console.log(
        `\npass ${g.pass}: p50 of exact forward at ${rate} req/s x${g.from} ${g.p50_from} ms -> x${g.to} ${g.p50_to} ms:` +
          ` ${g.growth_ms >= 0 ? '+' : ''}${g.growth_ms} ms (target <= +1 ms: ${g.growth_ms <= 1 ? 'holds' : 'missed'})`,
      );
    }
    const outDir = RESULTS_DIR;
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ elasticsearch: es.version, heap, dataset: dataset.name, rate, settings, rows, stats, growth }, null, 2)}\n`,
    );
    console.log(`\nwritten to ${file} (total ${Math.round((Date.now() - started) / 1000)} s)`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (!args.keep) {
      await openAll(client, prefixes).catch(() => {});
      for (const prefix of new Set(prefixes)) await deletePrefix(client, prefix);
      log('bench indexes deleted (--keep keeps them for a rerun)');
    }
    await client.close();
    await es.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
