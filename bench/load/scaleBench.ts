/**
 * `npm run bench:scale [-- --sizes 1,4,8] [--build indexer|copy] [--small] [--duration S] [--warmup S] [--rate R]
 *  [--connections N] [--repeat N] [--only REGEX] [--keep] [--delete] [--kill-node]`
 *
 * The scale model: how latency, throughput, disk, memory and build time grow with the number of addresses. Each
 * size N is N times the bulk data under its own bench prefix: copy 1 the data as published, copies k >= 2 the
 * same addresses in cities renamed "<city>~k" under new ids (clearly synthetic: bench/support/scaleReplicas.ts).
 * `--build indexer` (the default) writes copies 2..N of the address files beside the originals and runs the real
 * indexer on them (bench/support/scaleSources.ts, scaleBuild.ts: its time and peak RSS are recorded in
 * bench/results/scale-builds.json, so a kept size keeps its build figures); `--build copy` copies the 1x indexes
 * with scroll + `_bulk` (bench/support/scaleIndexes.ts), faster to write but no measure of the indexer.
 *
 * At each size the API (a separate production-mode process, its boundary tiles cut ahead first) serves every entry
 * point (bench/support/scaleScenarios.ts: exact forward, free text, keystrokes, reverse, batch, a tile, a GeoJSON
 * level), once at a fixed rate (latency: --rate, default 100 req/s; batch a tenth of it, 100 addresses a request)
 * and once as fast as it goes (throughput, --connections), with two quality probes (a drawn address's free text,
 * its city alone). Only the measured size's indexes are open meanwhile, so the page cache and the heap hold that
 * size alone. Records index size on disk, documents and segments per index kind, the node's heap, the API's RSS,
 * and prints the largest size against the smallest (the targets of docs/capacity.md).
 * `--kill-node` then SIGKILLs the elected master of a local cluster (`npm run es -- --nodes 3`) under load at the
 * largest size. `--small` measures the Delft sample (1x only with the indexer): a smoke check in a few minutes.
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
import { aliasesExist, liveIndexes } from '../../indexer/generations/generations.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { loadDevelopmentConfig } from '../../core/config/development.js';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { startApiProcess } from '../support/apiProcess.js';
import { sampleAddresses, sampleAreas } from '../support/benchQueries.js';
import { ensureIndexed } from '../support/datasets.js';
import { drive, formatTable, type LoadSettings, type Row } from '../support/loadDriver.js';
import { elasticsearchPid, waitUntilQuiet } from '../support/processCpu.js';
import {
  type BuildRecord,
  buildRecordOf,
  buildWithIndexer,
  clusterIdentity,
  recordBuild,
} from '../support/scaleBuild.js';
import { addressProbe, cityProbe, firstHits, scaleScenarios } from '../support/scaleScenarios.js';
import { scaleManifest } from '../support/scaleSources.js';
import { killNodeUnderLoad } from '../support/nodeKill.js';
import { processMemory } from '../support/processMemory.js';
import { awaitSeeding, type SeedingStatus } from '../support/tileSeedPhase.js';
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
    sizes: { type: 'string', default: '1,4,8' },
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
    /** How sizes are built: `indexer` (the real indexer on copies of the address files) or `copy` (scroll + _bulk). */
    build: { type: 'string', default: 'indexer' },
    /** After the passes, SIGKILL the elected master under load at the largest size (a cluster of 3+ local nodes). */
    'kill-node': { type: 'boolean', default: false },
    /** Requests a second of each of the three entry points while the node is killed. */
    'kill-rate': { type: 'string', default: '50' },
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
if (args.build !== 'indexer' && args.build !== 'copy') throw new Error('--build: indexer or copy');
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

type TileSeeding = SeedingStatus & { waited_s?: number };

interface SizeStats {
  size: number;
  prefix: string;
  addresses: number;
  kinds: IndexKindStats[];
  heap: HeapStats;
  /** The API's memory after this size's runs. */
  api_memory: { rss_mb: number; peak_rss_mb: number } | null;
  /** The boundary tiles cut ahead when this size's API started (waited for before the runs). */
  tile_seeding: TileSeeding;
  /** How this size was built (bench/results/scale-builds.json; null when built before builds were recorded). */
  build: BuildRecord | null;
  /** Of the first 100 free-text queries, how many found the drawn address first (replicas must stay findable). */
  search_first_hit: number;
  /** Of the first 100 drawn addresses' city names searched alone, how many found that city first. */
  city_first_hit: number;
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

/** Asks the API to cut its tiles ahead and waits until it has (the runs then share no core with the worker). */
async function seedTiles(apiUrl: string): Promise<TileSeeding> {
  const headers = { 'x-api-key': BENCH_API_KEY };
  const started = Date.now();
  await fetch(`${apiUrl}/tiles/boundaries.json`, { headers });
  const seeding = await awaitSeeding(apiUrl, headers, 20 * 60_000);
  if (seeding.state === 'seeding') throw new Error(`tile seeding did not end: ${JSON.stringify(seeding)}`);
  return { ...seeding, waited_s: Math.round((Date.now() - started) / 1000) };
}

/** The API's memory after a size's runs, as the scale table prints it. */
function apiMemoryOf(pid: number | undefined): SizeStats['api_memory'] {
  const memory = processMemory(pid);
  return memory ? { rss_mb: memory.rssMb, peak_rss_mb: memory.peakRssMb } : null;
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
  const cities = await sampleAreas(client, prefix, 'city', 500, seed);
  const api = await startApiProcess({ elasticsearchUrl: esUrl, indexPrefix: prefix, apiKey: BENCH_API_KEY });
  children.push(api.process);
  try {
    const tileSeeding = await seedTiles(api.url);
    log(`x${size}: tiles cut ahead ${JSON.stringify(tileSeeding)}`);
    const scenarios = scaleScenarios({
      apiUrl: api.url,
      apiKey: BENCH_API_KEY,
      addresses: drawn,
      cities,
      rate,
      seed,
    }).filter((s) => !only || only.test(s.name));
    const probe = async (p: ReturnType<typeof addressProbe>) => firstHits(api.url, BENCH_API_KEY, p.paths, p.expected);
    const searchFirstHit = await probe(addressProbe(drawn));
    const cityFirstHit = await probe(cityProbe(drawn));
    const rows: ScaleRow[] = [];
    for (const scenario of scenarios) {
      for (const overallRate of rate > 0 ? [scenario.fixedRate, undefined] : [undefined]) {
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
        api_memory: apiMemoryOf(api.process.pid),
        tile_seeding: tileSeeding,
        build: buildRecordOf(await clusterIdentity(client), prefix),
        search_first_hit: searchFirstHit,
        city_first_hit: cityFirstHit,
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
    'heap used MB',
    'API RSS MB (peak)',
    'tiles cut ahead (s)',
    'build s (how)',
    'build µs/address',
    'indexer RSS MB',
    'search 1st hit',
    'city 1st hit',
  ];
  console.log(
    formatTable(
      header,
      stats.map((s) => {
        const total = s.kinds.reduce((sum, k) => sum + k.store_bytes, 0);
        return [
          `x${s.size}`,
          String(s.addresses),
          ...INDEX_KINDS.map((kind) => mb(s.kinds.find((k) => k.kind === kind)!.store_bytes)),
          mb(total),
          String(Math.round(total / s.addresses)),
          String(s.kinds.reduce((sum, k) => sum + k.segments, 0)),
          mb(s.heap.heap_used_bytes),
          s.api_memory ? `${s.api_memory.rss_mb} (${s.api_memory.peak_rss_mb})` : '-',
          `${s.tile_seeding.tiles ?? '-'} (${s.tile_seeding.seconds ?? '-'})`,
          s.build ? `${s.build.seconds} (${s.build.how})` : '-',
          s.build ? String(Math.round((s.build.seconds * 1e6) / s.build.addresses)) : '-',
          s.build?.peak_rss_mb ? String(s.build.peak_rss_mb) : '-',
          `${s.search_first_hit}/100`,
          `${s.city_first_hit}/100`,
        ];
      }),
    ),
  );
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

/**
 * The issue's targets, the largest size against the smallest, per pass: p99 at the fixed rate (<= 2x) and
 * throughput (>= 0.6x) per entry point, the API's peak RSS (<= 2x) and build time per address (<= 1.2x).
 */
function growthAgainstSmallest(rows: ScaleRow[], stats: SizeStats[]) {
  const first = stats[0];
  const last = stats[stats.length - 1];
  if (!first || !last || first.size === last.size) return null;
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const passes = [...new Set(rows.map((r) => r.pass))];
  const pick = (pass: number, size: number, scenario: string, fixed: boolean) =>
    rows.find((r) => r.pass === pass && r.size === size && r.scenario === scenario && Boolean(r.rate_limit) === fixed);
  const entryPoints = passes.flatMap((pass) =>
    scenarios.map((scenario) => {
      const p99 = [pick(pass, first.size, scenario, true), pick(pass, last.size, scenario, true)];
      const max = [pick(pass, first.size, scenario, false), pick(pass, last.size, scenario, false)];
      return {
        pass,
        scenario,
        p99_ms: [p99[0]?.p99_ms, p99[1]?.p99_ms],
        p99_growth: p99[0] && p99[1] ? ratio(p99[1].p99_ms, p99[0].p99_ms) : null,
        throughput: [max[0]?.requests_per_s, max[1]?.requests_per_s],
        throughput_ratio: max[0] && max[1] ? ratio(max[1].requests_per_s, max[0].requests_per_s) : null,
      };
    }),
  );
  const perAddress = (s: SizeStats) => (s.build ? s.build.seconds / s.build.addresses : NaN);
  return {
    from: first.size,
    to: last.size,
    entry_points: entryPoints,
    api_peak_rss: ratio(last.api_memory?.peak_rss_mb ?? 0, first.api_memory?.peak_rss_mb ?? 0),
    build_time_per_address: first.build && last.build ? ratio(perAddress(last), perAddress(first)) : null,
  };
}

function printGrowth(growth: NonNullable<ReturnType<typeof growthAgainstSmallest>>) {
  const verdict = (value: number | null, holds: (v: number) => boolean) =>
    value === null ? '-' : `${value}x ${holds(value) ? 'holds' : 'MISSED'}`;
  console.log(`\nx${growth.to} against x${growth.from} (targets: p99 <= 2x, throughput >= 0.6x)\n`);
  console.log(
    formatTable(
      ['pass', 'scenario', 'p99 ms', 'p99 growth', 'req/s', 'throughput'],
      growth.entry_points.map((e) => [
        String(e.pass),
        e.scenario,
        e.p99_ms.join(' -> '),
        verdict(e.p99_growth, (v) => v <= 2),
        e.throughput.join(' -> '),
        verdict(e.throughput_ratio, (v) => v >= 0.6),
      ]),
    ),
  );
  console.log(
    `\nAPI peak RSS ${verdict(growth.api_peak_rss, (v) => v <= 2)} (target <= 2x);` +
      ` build time per address ${verdict(growth.build_time_per_address, (v) => v <= 1.2)} (target <= 1.2x)`,
  );
}

/**
 * `--kill-node`: the largest size's forward, free text and keystrokes together at `--kill-rate` each for 30 s
 * while the cluster's elected master is SIGKILLed (bench/support/nodeKill.ts).
 */
async function killNodeAtLargest(client: Client, esUrl: string, children: ChildProcess[]) {
  const prefix = scalePrefix(dataset.name, sizes[sizes.length - 1]!);
  const drawn = await sampleAddresses(client, prefix, Number(args.queries), seed);
  const logFile = join(RESULTS_DIR, 'kill-node-api.log');
  const api = await startApiProcess({ elasticsearchUrl: esUrl, indexPrefix: prefix, apiKey: BENCH_API_KEY, logFile });
  log(`the API's request log: ${logFile}`);
  children.push(api.process);
  try {
    const scenarios = scaleScenarios({
      apiUrl: api.url,
      apiKey: BENCH_API_KEY,
      addresses: drawn,
      cities: [],
      rate,
      seed,
    })
      .filter((s) => ['forward exact', 'search free text', 'autocomplete keystrokes'].includes(s.name))
      .map((s) => ({ ...s, fixedRate: Number(args['kill-rate']) }));
    return await killNodeUnderLoad(client, scenarios, 30, log);
  } finally {
    api.process.kill('SIGTERM');
  }
}

/**
 * Builds every size not built yet: with the real indexer (the bulk manifest, and for N > 1 copies 2..N of its
 * address files beside it: bench/support/scaleSources.ts), or with `--build copy` from the 1x indexes.
 */
async function buildSizes(client: Client, esUrl: string): Promise<void> {
  const source = scalePrefix(dataset.name, 1);
  const buildOne = async (size: number) => {
    const prefix = scalePrefix(dataset.name, size);
    if (await aliasesExist(client, prefix)) return log(`x${size}: already built under "${prefix}"`);
    // The disk a size needs, from the 1x indexes' (the indexer builds a size without them: unchecked then).
    if (size > 1 && (await aliasesExist(client, source)))
      await assertDiskFor(client, size, await indexStats(client, source));
    if (args.build === 'indexer') {
      const manifest = await scaleManifest(dataset.manifestPath, size, join(RESULTS_DIR, 'scale-sources'), log);
      log(`x${size}: indexing ${manifest}`);
      const record = await buildWithIndexer(esUrl, await clusterIdentity(client), manifest, prefix);
      return log(`x${size}: built ${JSON.stringify(record)}`);
    }
    const started = Date.now();
    const load = loadavg()[0]!;
    if (size === 1)
      await ensureIndexed(client, { name: `${dataset.name} x1`, manifestPath: dataset.manifestPath, prefix }, log);
    else await ensureReplicated(client, source, prefix, size, log);
    const addresses = (await client.count({ index: aliasName(prefix, 'addresses') })).count;
    recordBuild({
      prefix,
      cluster: await clusterIdentity(client),
      how: size === 1 ? 'indexer' : 'copy',
      addresses,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      peak_rss_mb: null,
      load_average: Math.round(load * 10) / 10,
      built_at: new Date().toISOString(),
    });
  };
  // The copy reads the 1x indexes; the indexer builds each size from files, so only the sizes measured.
  for (const size of args.build === 'copy' ? [...new Set([1, ...sizes])] : sizes) await buildOne(size);
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
    await openAll(client, prefixes);
    await buildSizes(client, es.url);
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
    const nodeKill = args['kill-node'] ? await killNodeAtLargest(client, es.url, children) : undefined;
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
    const growth = growthAgainstSmallest(rows, stats);
    if (growth) printGrowth(growth);
    if (nodeKill) {
      console.log(
        `\nThe elected master (${nodeKill.name}) SIGKILLed ${nodeKill.at_s} s into the load; health after: ${nodeKill.status_after}\n`,
      );
      printRows(nodeKill.rows.map((r) => ({ ...r, pass: 0, size: sizes[sizes.length - 1]!, addresses: 0 })));
      for (const r of nodeKill.rows) console.log(`${r.scenario}: statuses ${JSON.stringify(r.statuses)}`);
    }
    const outDir = RESULTS_DIR;
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ elasticsearch: es.version, heap, dataset: dataset.name, rate, settings, rows, stats, growth, nodeKill }, null, 2)}\n`,
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
