/**
 * `npm run bench:tail [-- --scenario place|keystrokes|forward] [--rate R] [--seconds S] [--node-opt=--flag ...]
 * [--api name=DIR ...] [--rounds N] [--trace] [--connections N ...]`: where a fixed-rate p99 comes from. Drives the API (a production process on
 * the `bench-bulk-` indexes of ELASTICSEARCH_URL; it only reads) at an open-loop rate, records every request's
 * latency with the moment it was due, and prints the quantiles, which 100 ms windows hold the slowest 1 %
 * (clustered: stalls; spread: queueing), the generator's own event-loop delay, and the API's garbage collections
 * during the measured seconds (bench/support/gcWatch.mjs): scavenges and mark-compacts (count, total and longest
 * pause) and the bytes each request allocated and had promoted to the old generation.
 *
 * `--trace` (this checkout's API, SEARCH_TRACE=true): every answer tells what it waited for (round trips in a row,
 * searches, `took`, its batch: bench/support/searchTraces.ts); the run prints which kinds of request make the slowest
 * 1 and 2 %, where their time went against everyone's, the API's event-loop delay (gcWatch.mjs, per half second) and,
 * where the node's G1 log is readable on this machine, how many of them were in flight during one of its JVM pauses.
 *
 * `--api main=/tmp/base --api now=.` compares checkouts (another commit's tree with this one's node_modules linked
 * in): `--rounds` runs of each, alternating, then one row per run. Node.js options for the API
 * (`--node-opt=--min-semi-space-size=64`) compare GC settings.
 *
 * `--connections N`: the open loop's connections, opened before each run and kept, as a search box keeps its one
 * (default 256); `0`: a new connection for each request due while the others are busy, as the probe did before issue
 * 39's fifth pass (after a hiccup, hundreds at once: see bench/support/openLoop.ts). Given twice (`--connections 0
 * --connections 256`), every API is measured both ways, alternating: how much of a tail was the generator's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { parseApiSpec } from '../support/apiSpec.js';
import { startApiProcess } from '../support/apiProcess.js';
import { keystrokePaths, placePaths, sampleAddresses, streetBodies } from '../support/benchQueries.js';
import { type OpenLoopRequest, type OpenLoopSample, openLoop, quantile } from '../support/openLoop.js';
import { seededRandom } from '../support/random.js';
import { BENCH_API_KEY, BENCH_SEED, BULK_PREFIX, REPO_ROOT, elasticsearchUrlFromEnv } from '../support/defaults.js';
import { interleave } from '../support/interleave.js';
import { elasticsearchPid } from '../support/processCpu.js';
import {
  kindOf,
  kindTable,
  medianParts,
  overlapsPause,
  type Parts,
  parseJvmPauses,
  parseTrace,
  partsOf,
} from '../support/searchTraces.js';
import { SEARCH_TRACE_HEADER } from '../../src/http/searchTrace.js';
import { isShortPrefix } from '../../src/features/autocomplete/shortPrefixCache.js';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'place' },
    rate: { type: 'string', default: '970' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    prefix: { type: 'string', default: BULK_PREFIX },
    'node-opt': { type: 'string', multiple: true, default: [] },
    api: { type: 'string', multiple: true, default: ['now=.'] },
    rounds: { type: 'string', default: '1' },
    trace: { type: 'boolean', default: false },
    connections: { type: 'string', multiple: true, default: ['256'] },
  },
});
const esUrl = elasticsearchUrlFromEnv();
const rate = Number(args.rate);
const gcWatch = join(REPO_ROOT, 'bench/support/gcWatch.mjs');

/**
 * The open loop over `requests` at `rate` (over `connections` kept ones, 0: new ones as needed), keeping every
 * answer's due time, with this process's event-loop delay.
 */
async function run(url: string, requests: OpenLoopRequest[], seconds: number, connections: number) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const result = await openLoop({
    url,
    requests,
    headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' },
    rate,
    seconds,
    keepSamples: true,
    ...(args.trace ? { keepHeader: SEARCH_TRACE_HEADER } : {}),
    ...(connections > 0 ? { connections } : {}),
  });
  loop.disable();
  return { result, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 };
}

interface Gc {
  at: number;
  kind: string;
  ms: number;
  allocated: number;
  promoted: number;
}

function readGcs(file: string): Gc[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, kind = '?', ms, allocated, promoted] = line.split(' ');
      return { at: Number(at), kind, ms: Number(ms), allocated: Number(allocated), promoted: Number(promoted) };
    });
}

interface Row {
  api: string;
  answered: number;
  p50: number;
  p99: number;
  max: number;
  scavenges: number;
  scavengeMs: number;
  scavengeMax: number;
  majors: number;
  majorMs: number;
  allocatedPerReq: number;
  promotedPerReq: number;
  load: string;
}

function summarise(api: string, samples: OpenLoopSample[], sent: number, gcs: Gc[], load: string): Row {
  const sorted = samples.map((s) => s.latencyMs).sort((a, b) => a - b);
  const minor = gcs.filter((g) => g.kind === 'minor');
  const collections = gcs.filter((g) => g.kind !== 'loop');
  const major = gcs.filter((g) => g.kind === 'major');
  const sum = (list: Gc[], f: (g: Gc) => number) => list.reduce((n, g) => n + f(g), 0);
  return {
    api,
    answered: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: quantile(sorted, 1),
    scavenges: minor.length,
    scavengeMs: sum(minor, (g) => g.ms),
    scavengeMax: Math.max(0, ...minor.map((g) => g.ms)),
    majors: major.length,
    majorMs: sum(major, (g) => g.ms),
    allocatedPerReq: sum(collections, (g) => g.allocated) / sent,
    promotedPerReq: sum(minor, (g) => g.promoted) / sent,
    load,
  };
}

function printRun(row: Row, samples: OpenLoopSample[], loopP99: number, loopMax: number) {
  const threshold = row.p99;
  const windows = new Map<number, number>();
  for (const s of samples) {
    if (s.latencyMs < threshold) continue;
    const w = Math.floor(s.dueMs / 100);
    windows.set(w, (windows.get(w) ?? 0) + 1);
  }
  const list = [...windows].sort((a, b) => a[0] - b[0]).map(([w, n]) => `${(w / 10).toFixed(1)}s:${n}`);
  console.log(
    `${row.api}: ${args.scenario} at ${rate}/s, ${row.answered} answered; p50 ${row.p50.toFixed(1)} p99 ` +
      `${row.p99.toFixed(1)} max ${row.max.toFixed(1)} ms; generator event-loop delay p99 ${loopP99.toFixed(1)} ` +
      `max ${loopMax.toFixed(1)} ms; load average ${row.load}`,
  );
  console.log(`  slowest 1 % by 100 ms window of due time (second:count): ${list.join(' ')}`);
  // A request that waited for a new connection (none kept free): after a hiccup, TCP's 1 s SYN retry shows here.
  const connected = samples.filter((s) => s.latencyMs >= threshold && s.connectMs > 0).map((s) => s.connectMs);
  const all = samples.filter((s) => s.connectMs > 0).length;
  console.log(
    `  new connections: ${all} of all requests, ${connected.length} of the slowest 1 % (their connect: median ` +
      `${quantile(
        connected.sort((a, b) => a - b),
        0.5,
      ).toFixed(1)} ms, max ${quantile(connected, 1).toFixed(1)} ms)`,
  );
}

const f = (n: number, digits = 0) => n.toFixed(digits);
function printTable(rows: Row[]) {
  console.log(
    '\n| api | p50 ms | p99 ms | max ms | scavenges | pause total / max ms | mark-compacts (ms) | KB allocated / req | KB promoted / req | load average |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.api} | ${f(r.p50, 1)} | ${f(r.p99, 1)} | ${f(r.max)} | ${r.scavenges} | ${f(r.scavengeMs)} / ${f(r.scavengeMax, 1)} | ` +
        `${r.majors} (${f(r.majorMs)}) | ${f(r.allocatedPerReq / 1024, 1)} | ${f(r.promotedPerReq / 1024, 2)} | ${r.load} |`,
    );
  }
}

/** --trace: the kinds of request in the slowest 1 and 2 %, where their time went, the API's event loop and GCs. */
function printTraces(samples: OpenLoopSample[], gcs: Gc[], from: number, esGcLog: string | undefined) {
  const rows = samples.map((s) => {
    const trace = parseTrace(s.header);
    const q = new URL(s.path ?? '/', 'http://x').searchParams.get('q') ?? '';
    return {
      ...s,
      latency: s.latencyMs,
      kind: kindOf(trace, isShortPrefix(q)),
      parts: trace && partsOf(s.latencyMs, trace),
    };
  });
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  console.log(
    '\n| kind (round trips in a row, each its indexes) | of all | of slowest 1 % | of slowest 2 % | p50 ms | p99 ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const k of kindTable(rows)) {
    console.log(
      `| ${k.kind} | ${pct(k.all)} | ${pct(k.slowest1)} | ${pct(k.slowest2)} | ${f(k.p50, 1)} | ${f(k.p99, 1)} |`,
    );
  }
  const sorted = [...rows].sort((a, b) => b.latency - a.latency);
  const partsOfTop = (share: number) =>
    sorted.slice(0, Math.ceil(sorted.length * share)).flatMap((r) => (r.parts ? [r.parts] : []));
  console.log(
    '\n| requests (median of each part) | latency | outside the API | in the API | in round trips | took | batch wait | batch |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const line = (name: string, list: Parts[]) => {
    const m = medianParts(list);
    console.log(
      `| ${name} (${list.length}) | ${f(m.latency, 1)} | ${f(m.outside, 1)} | ${f(m.api, 1)} | ${f(m.roundTrips, 1)} | ` +
        `${f(m.took)} | ${f(m.batchWait, 2)} | ${f(m.batch)} |`,
    );
  };
  line('all', partsOfTop(1));
  line('slowest 2 %', partsOfTop(0.02));
  line('slowest 1 %', partsOfTop(0.01));
  // The API's event loop per half second, and where the slowest 1 % fell against its stalls.
  const loops = gcs.filter((g) => g.kind === 'loop');
  const maxes = loops.map((g) => g.ms).sort((a, b) => a - b);
  const threshold = sorted[Math.ceil(sorted.length * 0.01) - 1]?.latency ?? 0;
  const stalled = new Set(loops.filter((g) => g.ms > 10).map((g) => Math.floor((g.at - from) / 500)));
  const slowInStall = sorted.filter((r) => r.latency >= threshold && stalled.has(Math.floor(r.dueMs / 500))).length;
  const majors = gcs.filter((g) => g.kind === 'major');
  console.log(
    `\nAPI event loop, max delay per half second: median ${f(quantile(maxes, 0.5), 1)} ms, p90 ${f(quantile(maxes, 0.9), 1)}, ` +
      `max ${f(quantile(maxes, 1), 1)}; half seconds over 10 ms: ${stalled.size} of ${loops.length}, holding ` +
      `${slowInStall} of the slowest 1 % (by due time, +-0.5 s); mark-compacts ${majors.length} ` +
      `(${majors.map((g) => f(g.ms, 1)).join(', ')} ms)`,
  );
  // Elasticsearch's own stop-the-world pauses (its G1 log), against the requests in flight during them.
  if (!esGcLog) return;
  const end = from + Math.max(...rows.map((r) => r.dueMs + r.latency));
  const pauses = parseJvmPauses(esGcLog).filter((p) => p.endMs > from && p.endMs - p.ms < end);
  const hit = (list: typeof rows) => list.filter((r) => overlapsPause(from + r.dueMs, r.latency, pauses)).length;
  const top = sorted.slice(0, Math.ceil(sorted.length * 0.01));
  console.log(
    `Elasticsearch JVM pauses during the run: ${pauses.length} (${pauses.map((p) => f(p.ms)).join(', ')} ms); ` +
      `requests in flight during one: ${pct(hit(rows) / rows.length)} of all, ${pct(hit(top) / top.length)} of the slowest 1 %`,
  );
}

function requestsFor(scenario: string, addresses: Awaited<ReturnType<typeof sampleAddresses>>): OpenLoopRequest[] {
  const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
  if (scenario === 'keystrokes') return get(keystrokePaths(addresses));
  if (scenario === 'place') return get(placePaths(addresses));
  if (scenario === 'forward') {
    // The same exact bodies as `npm run bench` (seed 42).
    return streetBodies(addresses, false, seededRandom(BENCH_SEED)).map((b) => ({
      method: 'POST' as const,
      path: '/geocode/forward',
      body: JSON.stringify(b),
    }));
  }
  throw new Error(`--scenario place|keystrokes|forward, not ${scenario}`);
}

async function measure(name: string, root: string, requests: OpenLoopRequest[], connections: number): Promise<Row> {
  const gcOut = join(tmpdir(), `gc-watch-${process.pid}-${name}.txt`);
  rmSync(gcOut, { force: true });
  const api = await startApiProcess({
    elasticsearchUrl: esUrl,
    indexPrefix: args.prefix,
    apiKey: BENCH_API_KEY,
    root: resolve(root),
    nodeOptions: ['--import', gcWatch, ...args['node-opt']],
    env: { GC_WATCH_OUT: gcOut, ...(args.trace ? { SEARCH_TRACE: 'true' } : {}) },
  });
  try {
    await run(api.url, requests, Number(args.warmup), connections);
    const from = Date.now();
    const { result, loopP99, loopMax } = await run(api.url, requests, Number(args.seconds), connections);
    const to = Date.now();
    // The watcher appends twice a second, stamping each collection with the end of its half-second.
    await new Promise((r) => setTimeout(r, 700));
    const gcs = readGcs(gcOut).filter((g) => g.at > from + 250 && g.at <= to + 250);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const row = summarise(name, result.samples, result.sent, gcs, load);
    printRun(row, result.samples, loopP99, loopMax);
    if (args.trace) printTraces(result.samples, gcs, from, esGcLog && readFileSync(esGcLog, 'utf8'));
    return row;
  } finally {
    const exited = new Promise((r) => api.process.once('exit', r));
    api.process.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    rmSync(gcOut, { force: true });
  }
}

/** --trace: Elasticsearch's G1 log, where it is this machine's (the launcher writes it in the node's working folder). */
let esGcLog: string | undefined;

async function main() {
  const client = createElasticsearchClient({ url: esUrl, requestTimeoutMs: 60_000 });
  const pid = args.trace ? await elasticsearchPid(client) : undefined;
  if (pid !== undefined && existsSync(`/proc/${pid}/cwd/gc.log`)) esGcLog = `/proc/${pid}/cwd/gc.log`;
  const addresses = await sampleAddresses(client, args.prefix, 2000, BENCH_SEED);
  await client.close();
  const requests = requestsFor(args.scenario, addresses);
  const ways = args.connections.map(Number);
  const runs = args.api.map(parseApiSpec).flatMap((api) =>
    ways.map((connections) => ({
      ...api,
      connections,
      label:
        ways.length > 1 ? `${api.label}, ${connections > 0 ? `${connections} kept` : 'new'} connections` : api.label,
    })),
  );
  const rows: Row[] = [];
  await interleave(runs, { rounds: Number(args.rounds), order: 'alternate' }, async (target) => {
    rows.push(await measure(target.label, target.dir, requests, target.connections));
  });
  printTable(rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
