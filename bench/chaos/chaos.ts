/**
 * `npm run chaos [-- --soak 30] [--rate 200] [--nodes 3] [--heap 512m] [--only 2,7] [--flood-seconds 20] [--flood-key K]
 *   [--manifest datasets/sample.json] [--short]`
 *
 * Reliability at cluster scale, measured (not asserted): a three-node local cluster (dev/elasticsearch/localNode.ts,
 * one replica per shard; --nodes 1: none), the sample indexed by the real indexer, the API as a child process of
 * src/main.ts (as in bench/load/apiBench.ts), and a steady mixed load through it with autocannon (forward geocoding,
 * street lookup, GeoJSON of a city) while faults are injected in phases:
 *
 *   0. baseline: as fast as the API goes for a few seconds, which sets the maximum rate
 *   1. kill: the elected master SIGKILLed, restarted 10 s later
 *   2. freeze: a data node SIGSTOPped for 20 s, then SIGCONT
 *   3. down: every node SIGKILLed, started again 30 s later
 *   4. reindex: a full indexer run (alias swap) under load, then a second run SIGKILLed half-way
 *   5. overload: twice the maximum rate
 *   6. soak: half the maximum rate for --soak minutes (default 2), the API's RSS and heap each minute
 *   7. health flood, keyed `POST /geocode/forward` (exact addresses from the data) beside 64 connections asking
 *      `/health` without a key as fast as they can (as from one anonymous address; a process of its own): as fast as
 *      16 connections go for 10 s alone (7a) and beside the flood (7b: the rate kept at saturation); then at half
 *      7a's rate, open loop (bench/support/openLoop.ts), alone (7c) and beside the flood (7d), twice in turn, for
 *      --flood-seconds each (the target's tail); then the steady mixed load alone (7e) and beside the flood (7f).
 *      The CPU of the generators and of the API is noted. One node is enough (`--only 7 --nodes 1`: no replica)
 *   8. rolling restart: two API processes on one port (REUSE_PORT, SO_REUSEPORT); one is sent SIGTERM, a new one
 *      started once it has exited, then the same for the other: under the steady mixed load (8a), then under a
 *      keyed `/health/live` (no Elasticsearch) at --rate (8b)
 *   9. Elasticsearch frozen: every node SIGSTOPped for 8 s under a closed loop of 4 connections (9a), then of 64
 *      (9b); "first fail" is how long after the freeze the first failed answer (a fast 503) came
 *
 * Per phase: requests, non-2xx by status (0 = no answer: a socket error or a client timeout), p50/p99, how long
 * after the fault began the first request failed (first fail), how long requests failed after the fault began
 * (disrupted) and after it was removed (recover). The load average (`uptime`) is noted at each phase's end. Works with or without the
 * API's circuit breaker and load shedding: it only counts what comes back. Every wait is bounded; loopback only.
 * --short halves the fault windows (for a quick look). Results also go to bench/results/chaos-<time>.json.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, type LocalCluster, startLocalCluster } from '../../dev/elasticsearch/localNode.js';
import { listGenerations } from '../../indexer/generations/generations.js';
import { deleteIndexes } from '../../indexer/generations/generationIndexes.js';
import { runIndexing } from '../../indexer/commands/index.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import type { AddressDoc, AreaDoc } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { startApiProcess } from '../support/apiProcess.js';
import { openLoop } from '../support/openLoop.js';
import { ownCpuMs, processCpuMs } from '../support/processCpu.js';
import { REPO_ROOT, RESULTS_DIR } from '../support/defaults.js';

const API_KEY = 'chaos-key';
const PREFIX = 'chaos-';

const { values: args } = parseArgs({
  options: {
    soak: { type: 'string', default: '2' },
    rate: { type: 'string', default: '200' },
    nodes: { type: 'string', default: '3' },
    heap: { type: 'string', default: '512m' },
    manifest: { type: 'string', default: 'datasets/sample.json' },
    connections: { type: 'string', default: '64' },
    short: { type: 'boolean', default: false },
    /** Seconds of each open-loop and mixed-load row of phase 7 (the closed-loop maxima take 10). */
    'flood-seconds': { type: 'string', default: '20' },
    /** Phase 7's flood sends this made-up `X-Api-Key` (a flood must not skip the anonymous gate with one). */
    'flood-key': { type: 'string' },
    /** Comma-separated phase numbers to run (the baseline always runs), e.g. `--only 2,3`. */
    only: { type: 'string' },
    /** Writes a CPU profile of the API (node --cpu-prof) into this folder; the API is stopped with SIGTERM. */
    'api-cpu-prof': { type: 'string' },
  },
});
const soakMinutes = Number(args.soak);
const nodeCount = Number(args.nodes);
/** One replica where there is another node to hold it; a single node stays green with none. */
const replicas = nodeCount > 1 ? 1 : 0;
const steadyRate = Number(args.rate);
const connections = Number(args.connections);
const floodSeconds = Number(args['flood-seconds']);
const scale = args.short ? 0.5 : 1;
const selected = new Set((args.only ?? '1,2,3,4,5,6,7,8,9').split(',').map((p) => p.trim()));
const SLOW_MS = 400;
const log = (m: string) => console.error(`[chaos] ${m}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface PhaseRow {
  phase: string;
  rate: number | 'max';
  seconds: number;
  requests: number;
  req_per_s: number;
  non2xx: Record<string, number>;
  p50_ms: number;
  p99_ms: number;
  first_fail_s: number | null;
  disrupted_s: number | null;
  recover_s: number | null;
  note: string;
}

interface PhaseControl {
  started: number;
  faultAt(): void;
  faultRemoved(): void;
  note(text: string): void;
}

let cluster: LocalCluster | undefined;
let api: ChildProcess | undefined;
const children = new Set<ChildProcess>();

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(intervalMs);
  }
  return false;
}

async function startApi(
  esUrl: string,
  env: NodeJS.ProcessEnv,
  port?: number,
): Promise<{ url: string; child: ChildProcess }> {
  const api = await startApiProcess({
    elasticsearchUrl: esUrl,
    indexPrefix: PREFIX,
    apiKey: API_KEY,
    logLevel: 'warn',
    imports: ['./bench/support/memoryProbe.ts'],
    env,
    ...(port === undefined ? {} : { port }),
  });
  children.add(api.process);
  api.process.once('exit', () => children.delete(api.process));
  return { url: api.url, child: api.process };
}

const loadAverage = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load average: /, '');

/** CPU used by the processes named, in % of one core, from now until the returned function is called. */
function cpuShare(processes: Record<string, () => number | undefined>): () => string {
  const started = performance.now();
  const before = Object.fromEntries(Object.entries(processes).map(([name, cpu]) => [name, cpu() ?? 0]));
  return () => {
    const wall = performance.now() - started;
    return Object.entries(processes)
      .map(([name, cpu]) => `${name} ${Math.round((((cpu() ?? 0) - (before[name] ?? 0)) / wall) * 100)} %`)
      .join(', ');
  };
}

/** The anonymous flood of phase 7b in a process of its own (bench/support/flood.ts); `started` once it floods. */
function flood(url: string, connections: number, seconds: number) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/support/flood.ts',
      url,
      String(connections),
      String(seconds),
      ...(args['flood-key'] ? [args['flood-key']] : []),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.add(child);
  let out = '';
  let onStart: () => void = () => {};
  const started = new Promise<void>((resolve) => (onStart = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('started')) onStart();
  });
  const done = once(child, 'exit').then(() => {
    children.delete(child);
    onStart();
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
      requests: number;
      statuses: Record<string, number>;
      cpu_ms: number;
    };
  });
  return { started, done };
}

/** Runs the load at `rate` (undefined: as fast as it goes) until `script` resolves or `maxSeconds` pass. */
async function phase(
  name: string,
  apiUrl: string,
  requests: RequestSpec[],
  rate: number | undefined,
  maxSeconds: number,
  script: (control: PhaseControl) => Promise<void>,
  phaseConnections = connections,
): Promise<PhaseRow> {
  log(`phase ${name}: ${rate ? `${rate} req/s` : 'max rate'}, at most ${maxSeconds} s`);
  let next = 0;
  const bad: number[] = [];
  const non2xx: Record<string, number> = {};
  let faultAt: number | undefined;
  let faultRemoved: number | undefined;
  const notes: string[] = [];
  const started = Date.now();
  // Without a callback autocannon returns its instance (an event emitter with stop()) that is also a promise.
  const instance: any = autocannon({
    url: apiUrl,
    connections: phaseConnections,
    duration: maxSeconds,
    timeout: 15,
    // autocannon's correction assumes one request per millisecond at any rate below one per connection-millisecond
    // (`ceil(1 / rate)`), recording a response of L ms as L values: percentiles weighted by latency. Off: the
    // rows' latencies are the answers' own (bench/support/openLoop.ts has the numbers).
    ...(rate ? { overallRate: rate, ignoreCoordinatedOmission: true } : {}),
    requests: [
      {
        setupRequest: (req: any) => {
          const r = requests[next++ % requests.length] as RequestSpec;
          // Fresh headers each time: autocannon writes Content-Length into the headers object it is given, and a
          // POST's would otherwise stay on the next GET (which then hangs the connection waiting for a body).
          const headers = { 'x-api-key': API_KEY, ...(r.body ? { 'content-type': 'application/json' } : {}) };
          return { ...req, method: r.method, path: r.path, body: r.body, headers };
        },
      },
    ],
  });
  const failed = (status: string) => {
    bad.push(Date.now());
    non2xx[status] = (non2xx[status] ?? 0) + 1;
  };
  // Answers slower than the API's default per-attempt bound (ES_ATTEMPT_TIMEOUT_MS, 400 ms with several nodes):
  // with a node frozen, the reads that met it before it was left out are these (how many, against the 1 % a p99
  // can hide, decides whether hedging a read sooner could lower the p99).
  const slowAt: number[] = [];
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseMs: number) => {
    if (statusCode < 200 || statusCode >= 300) failed(String(statusCode));
    else if (responseMs >= SLOW_MS) slowAt.push(Date.now());
  });
  const noAnswer = new Map<string, number>();
  instance.on('reqError', (error: Error) => {
    failed('0');
    noAnswer.set(error.message, (noAnswer.get(error.message) ?? 0) + 1);
  });
  const control: PhaseControl = {
    started,
    faultAt: () => {
      faultAt ??= Date.now();
    },
    faultRemoved: () => {
      faultRemoved = Date.now();
    },
    note: (text) => {
      notes.push(text);
      log(`  ${text}`);
    },
  };
  const scripted = script(control).then(
    () => instance.stop(),
    (error) => {
      control.note(`script failed: ${(error as Error).message}`);
      instance.stop();
    },
  );
  const result = (await instance) as autocannon.Result;
  await scripted;
  const slow = slowAt.length;
  // Those answered within 1.5 s of the fault: the reads that met a frozen node before it was left out.
  const slowAtFault =
    faultAt === undefined
      ? ''
      : ` (${slowAt.filter((t) => t >= (faultAt as number) && t <= (faultAt as number) + 1500).length} of them within 1.5 s after the fault)`;
  notes.push(
    `p99.9 ${result.latency.p99_9} ms, max ${result.latency.max} ms, ${slow} answers (${Math.round((slow / Math.max(result.requests.total, 1)) * 1000) / 10} %) >= ${SLOW_MS} ms${slowAtFault}`,
  );
  if (noAnswer.size) notes.push(`no answer: ${[...noAnswer].map(([m, n]) => `${m} (${n})`).join(', ')}`);
  const last = bad.length ? Math.max(...bad) : undefined;
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const row: PhaseRow = {
    phase: name,
    rate: rate ?? 'max',
    seconds,
    requests: result.requests.total,
    // Over the load's own duration: a script may go on after it (phase 7b waits for the flood's report).
    req_per_s: Math.round(result.requests.total / (result.duration || seconds)),
    non2xx,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    disrupted_s:
      faultAt === undefined ? null : last === undefined || last < faultAt ? 0 : Math.round((last - faultAt) / 100) / 10,
    recover_s:
      faultRemoved === undefined
        ? null
        : last === undefined || last < faultRemoved
          ? 0
          : Math.round((last - faultRemoved) / 100) / 10,
    first_fail_s: faultAt === undefined ? null : firstFailure(bad, faultAt),
    note: [...notes, `load average ${loadAverage()}`].join('; '),
  };
  log(`  ${JSON.stringify(row)}`);
  return row;
}

/**
 * Keyed requests at a fixed open-loop rate (bench/support/openLoop.ts: evenly spaced, latency from the moment each
 * was due) for `seconds`; the API's CPU per answered request is noted.
 */
async function openLoopPhase(
  name: string,
  apiUrl: string,
  requests: RequestSpec[],
  rate: number,
  seconds: number,
): Promise<PhaseRow> {
  log(`phase ${name}: ${rate} req/s open loop, ${seconds} s`);
  const started = Date.now();
  const apiCpuBefore = processCpuMs(api?.pid) ?? 0;
  const result = await openLoop({ url: apiUrl, requests, headers: { 'x-api-key': API_KEY }, rate, seconds });
  const apiCpuMs = (processCpuMs(api?.pid) ?? 0) - apiCpuBefore;
  const answered = result.ok;
  const non2xx = Object.fromEntries(
    Object.entries(result.statuses).filter(([status]) => Number(status) < 200 || Number(status) >= 300),
  );
  const row: PhaseRow = {
    phase: name,
    rate,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    requests: result.sent,
    req_per_s: result.ok_per_s,
    non2xx,
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    first_fail_s: null,
    disrupted_s: null,
    recover_s: null,
    note: [
      `max ${result.max_ms} ms`,
      `API CPU ${Math.round((apiCpuMs / Math.max(answered, 1)) * 100) / 100} ms per answered request`,
      `load average ${loadAverage()}`,
    ].join('; '),
  };
  log(`  ${JSON.stringify(row)}`);
  return row;
}

/**
 * Runs a phase beside the anonymous `/health` flood (64 connections, in a process of its own, under way before the
 * phase starts and lasting a little longer); the flood's answers and its generator's CPU go into the row's note.
 */
async function withFlood(apiUrl: string, seconds: number, run: () => Promise<PhaseRow>): Promise<PhaseRow> {
  const floodSeconds = seconds + 3;
  const flooding = flood(`${apiUrl}/health`, 64, floodSeconds);
  await flooding.started;
  const row = await run();
  const result = await flooding.done;
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const floodCpu = Math.round((result.cpu_ms / (floodSeconds * 1000)) * 100);
  row.note = `${row.note}; flood: ${Math.round(result.requests / floodSeconds)} req/s (${statuses}), its generator ${floodCpu} %`;
  return row;
}

/** Seconds from the fault to the first failed answer after it (null: none failed). */
function firstFailure(failedAt: number[], faultAt: number): number | null {
  const after = failedAt.filter((t) => t >= faultAt);
  return after.length ? Math.round((Math.min(...after) - faultAt) / 10) / 100 : null;
}

async function masterName(url: string): Promise<string | undefined> {
  const res = await fetch(`${url}/_cat/master?format=json`, { signal: AbortSignal.timeout(5000) });
  return ((await res.json()) as { node?: string }[])[0]?.node;
}

function runIndexer(
  esUrl: string,
  manifest: string,
): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; ms: number }> } {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'indexer/cli.ts', '--manifest', manifest, '--prefix', PREFIX, '--progress', 'none'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ELASTICSEARCH_URL: esUrl, INDEX_REPLICAS: String(replicas), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  children.add(child);
  const done = new Promise<{ code: number | null; signal: string | null; ms: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, ms: Date.now() - started });
    }),
  );
  return { child, done };
}

function printTable(rows: PhaseRow[]) {
  const header = [
    'phase',
    'rate',
    's',
    'requests',
    'req/s',
    'non-2xx by status',
    'p50 ms',
    'p99 ms',
    'first fail s',
    'disrupted s',
    'recover s',
  ];
  const lines = rows.map((r) => [
    r.phase,
    String(r.rate),
    String(r.seconds),
    String(r.requests),
    String(r.req_per_s),
    Object.entries(r.non2xx)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ') || '-',
    String(r.p50_ms),
    String(r.p99_ms),
    r.first_fail_s === null ? '-' : String(r.first_fail_s),
    r.disrupted_s === null ? '-' : String(r.disrupted_s),
    r.recover_s === null ? '-' : String(r.recover_s),
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => ' --- ').join('|')}|`);
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
  for (const r of rows) if (r.note) console.log(`- ${r.phase}: ${r.note}`);
}

async function main() {
  const memoryFile = join(tmpdir(), `geocoder-chaos-memory-${process.pid}.jsonl`);
  rmSync(memoryFile, { force: true });
  const manifest = resolve(REPO_ROOT, args.manifest);
  cluster = await startLocalCluster({ nodes: nodeCount, heap: args.heap, log });
  const c = cluster;
  const admin = createElasticsearchClient({ url: c.url, requestTimeoutMs: 120_000 });
  /** After a fault is removed: how long until every shard copy is back (cluster green). */
  const noteGreen = async (ctl: PhaseControl) => {
    const since = Date.now();
    const green = await c.waitForStatus('green', 60_000);
    ctl.note(`green ${green ? `after ${Math.round((Date.now() - since) / 1000)} s` : 'not within 60 s'}`);
  };
  log(`indexing ${args.manifest} with ${replicas} replica(s)`);
  await runIndexing({
    client: admin,
    manifestPath: manifest,
    indexPrefix: PREFIX,
    progress: 'none',
    layout: { replicas },
  });

  const addresses = (
    await admin.search<AddressDoc>({
      index: aliasName(PREFIX, 'addresses'),
      size: 200,
      query: { function_score: { query: { match_all: {} }, functions: [{ random_score: { seed: 42, field: 'id' } }] } },
      _source: ['streetname', 'number', 'suffix'],
    })
  ).hits.hits.map((h) => h._source as AddressDoc);
  const cities = (
    await admin.search<AreaDoc>({
      index: aliasName(PREFIX, 'areas'),
      size: 20,
      query: { term: { level: 'city' } },
      _source: ['id'],
    })
  ).hits.hits.map((h) => (h._source as AreaDoc).id);
  const requests: RequestSpec[] = [];
  for (const [i, a] of addresses.entries()) {
    const body = JSON.stringify({ streetname: a.streetname, number: `${a.number}${a.suffix ? ` ${a.suffix}` : ''}` });
    requests.push({ method: 'POST', path: '/geocode/forward', body });
    requests.push({ method: 'POST', path: '/lookup/street', body });
    const city = cities[i % Math.max(cities.length, 1)];
    if (city) requests.push({ method: 'GET', path: `/cities/${city}/geojson` });
  }
  log(`${requests.length} requests: forward, lookup and city GeoJSON`);

  const profiling = args['api-cpu-prof']
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(args['api-cpu-prof'])}` }
    : {};
  const started = await startApi(c.url, { CHAOS_MEMORY_FILE: memoryFile, ...profiling });
  api = started.child;
  const apiUrl = started.url;
  const rows: PhaseRow[] = [];

  // 0. The maximum rate this machine serves (the API, three JVMs and the load generator share two cores).
  const baseline = await phase(
    '0 baseline (max)',
    apiUrl,
    requests,
    undefined,
    10,
    async () => void (await sleep(10_000)),
    32,
  );
  rows.push(baseline);
  const maxRate = Math.max(baseline.req_per_s, 1);
  // A steady load above what the machine serves would make every phase an overload: cap it at 70 % of the maximum.
  const rate = Math.min(steadyRate, Math.max(1, Math.round(maxRate * 0.7)));
  if (rate < steadyRate) log(`the maximum is ${maxRate} req/s: steady load ${rate} req/s instead of ${steadyRate}`);

  // 1. The elected master SIGKILLed, restarted after 10 s.
  if (selected.has('1'))
    rows.push(
      await phase('1 kill master + restart', apiUrl, requests, rate, 120, async (ctl) => {
        await sleep(5_000);
        const name = await masterName(c.urls[0] as string).catch(() => undefined);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: tsc reads it as possibly undefined
        const node = c.nodes.find((n) => n.name === name) ?? (c.nodes[c.nodes.length - 1] as (typeof c.nodes)[number]);
        ctl.faultAt();
        await node.kill();
        ctl.note(`SIGKILLed ${node.name} (master: ${name ?? '?'})`);
        await sleep(10_000 * scale);
        const t = Date.now();
        await node.start();
        ctl.faultRemoved();
        ctl.note(`${node.name} rejoined after ${Math.round((Date.now() - t) / 1000)} s`);
        await noteGreen(ctl);
        await sleep(5_000);
      }),
    );

  // 2. A data node frozen (SIGSTOP) for 20 s: its sockets stay open and nothing answers.
  if (selected.has('2'))
    rows.push(
      await phase('2 freeze node 20 s', apiUrl, requests, rate, 90, async (ctl) => {
        await sleep(5_000);
        // The node other than the master that holds the most shard copies of the live indexes.
        const master = await masterName(c.urls[0] as string).catch(() => undefined);
        const shards = (await admin.cat.shards({ index: `${PREFIX}*`, format: 'json' })) as { node?: string }[];
        const copies = (name: string) => shards.filter((s) => s.node === name).length;
        const node = c.nodes
          .filter((n) => n.name !== master)
          .sort((a, b) => copies(b.name) - copies(a.name))[0] as (typeof c.nodes)[number];
        ctl.note(`${node.name} holds ${copies(node.name)} of ${shards.length} shard copies`);
        ctl.faultAt();
        node.freeze();
        ctl.note(`froze ${node.name}`);
        await sleep(20_000 * scale);
        node.thaw();
        ctl.faultRemoved();
        await noteGreen(ctl);
        await sleep(10_000);
      }),
    );

  // 3. The whole cluster SIGKILLed, started again after 30 s (same data directories).
  if (selected.has('3'))
    rows.push(
      await phase('3 cluster down 30 s', apiUrl, requests, rate, 240, async (ctl) => {
        await sleep(5_000);
        ctl.faultAt();
        await Promise.all(c.nodes.map((n) => n.kill()));
        await sleep(30_000 * scale);
        const t = Date.now();
        await Promise.all(c.nodes.map((n) => n.start()));
        ctl.faultRemoved();
        ctl.note(`nodes back after ${Math.round((Date.now() - t) / 1000)} s`);
        const ok = await waitFor(async () => (await fetch(`${apiUrl}/health`)).ok, 120_000, 500);
        ctl.note(
          `API healthy ${ok ? `${Math.round((Date.now() - t) / 1000)} s after the restart began` : 'not within 120 s'}`,
        );
        await c.waitForStatus('green', 60_000);
        await sleep(10_000);
      }),
    );

  // 4. A reindex with alias swap under load, then one SIGKILLed half-way.
  if (selected.has('4'))
    rows.push(
      await phase('4 reindex + kill indexer', apiUrl, requests, rate, 600, async (ctl) => {
        await sleep(3_000);
        const before = (await listGenerations(admin, PREFIX)).find((g) => g.live)?.generation;
        ctl.faultAt();
        const full = await runIndexer(c.url, manifest).done;
        const after = (await listGenerations(admin, PREFIX)).find((g) => g.live)?.generation;
        ctl.note(`indexer exit ${full.code} after ${Math.round(full.ms / 1000)} s, live ${before} -> ${after}`);
        const second = runIndexer(c.url, manifest);
        await sleep(Math.max(1_000, full.ms / 2));
        second.child.kill('SIGKILL');
        const killed = await second.done;
        ctl.faultRemoved();
        const generations = await listGenerations(admin, PREFIX);
        const debris = generations.filter((g) => !g.complete && !g.live);
        const live = generations.find((g) => g.live)?.generation;
        ctl.note(
          `second indexer SIGKILLed after ${Math.round(killed.ms / 1000)} s (${killed.signal}); live still ${live}; ${debris.length} partial generation(s) left (deleted by this script)`,
        );
        for (const g of debris)
          await deleteIndexes(
            admin,
            Object.values(g.indexes).map((i) => i.index),
          );
        await sleep(5_000);
      }),
    );

  // 5. Twice the maximum rate.
  if (selected.has('5'))
    rows.push(
      await phase('5 overload 2x max', apiUrl, requests, maxRate * 2, 15, async () => void (await sleep(15_000)), 256),
    );

  // 7. An anonymous /health flood (64 connections, no key, from loopback: one address) beside keyed load.
  // What the target names: keyed forward geocoding (exact addresses) as fast as it goes, alone (7a) and beside the
  // flood (7b): the rate kept; then at a fixed open-loop rate, half of 7a's, alone (7c) and beside the flood (7d):
  // the tail. Then the steady mixed load the same way (7e, 7f), autocannon's closed loop at a per-second budget.
  if (selected.has('7')) {
    const apiCpu = () => processCpuMs(api?.pid);
    const forward = requests.filter((r) => r.path === '/geocode/forward');
    const closedLoop = (name: string) =>
      phase(
        name,
        apiUrl,
        forward,
        undefined,
        10,
        async (ctl) => {
          const cpu = cpuShare({ API: apiCpu });
          await sleep(10_000);
          ctl.note(`CPU: ${cpu()}`);
        },
        16,
      );
    const keptOf = (row: PhaseRow, of: PhaseRow, label: string) => {
      row.note = `rate kept ${Math.round((row.req_per_s / Math.max(of.req_per_s, 0.1)) * 100)} % of ${label}; ${row.note}`;
      log(`  ${row.phase}: ${row.note}`);
      return row;
    };
    const forwardMax = await closedLoop('7a keyed forward alone, max (16 conn.)');
    rows.push(forwardMax);
    rows.push(
      keptOf(
        await withFlood(apiUrl, 10, () => closedLoop('7b keyed forward + flood, max (16 conn.)')),
        forwardMax,
        '7a',
      ),
    );
    // Half the closed-loop maximum, open loop, twice in turn alone and beside the flood (the machine's noise shows
    // as the difference between the two rounds).
    const forwardRate = Math.max(1, Math.round(forwardMax.req_per_s / 2));
    for (const round of [1, 2]) {
      const alone = await openLoopPhase(
        `7c keyed forward alone, open loop (${round})`,
        apiUrl,
        forward,
        forwardRate,
        floodSeconds,
      );
      rows.push(alone);
      const flooded = await withFlood(apiUrl, floodSeconds, () =>
        openLoopPhase(`7d keyed forward + flood, open loop (${round})`, apiUrl, forward, forwardRate, floodSeconds),
      );
      rows.push(keptOf(flooded, alone, `7c (${round})`));
    }
    const mixed = (name: string) =>
      phase(name, apiUrl, requests, rate, floodSeconds, async (ctl) => {
        const cpu = cpuShare({ 'keyed load generator': ownCpuMs, API: apiCpu });
        await sleep(floodSeconds * 1000);
        ctl.note(`CPU: ${cpu()}`);
      });
    const mixedAlone = await mixed('7e mixed load alone');
    rows.push(mixedAlone);
    rows.push(keptOf(await withFlood(apiUrl, floodSeconds, () => mixed('7f mixed load + flood')), mixedAlone, '7e'));
  }

  // 8. A rolling restart: two API processes on one port, each in turn sent SIGTERM and replaced once it exited;
  // 8a with the mixed load at the steady rate, 8b with a keyed `/health/live` (no Elasticsearch) at --rate, so the
  // connections' handling is measured at that rate even where Elasticsearch cannot serve it.
  if (selected.has('8')) {
    const port = await freePort();
    const startShared = () => startApi(c.url, { REUSE_PORT: 'true' }, port);
    const pair = [await startShared(), await startShared()];
    const live: RequestSpec[] = [{ method: 'GET', path: '/health/live' }];
    for (const [label, load, phaseRate] of [
      ['8a rolling restart, mixed load', requests, rate],
      ['8b rolling restart, /health/live', live, steadyRate],
    ] as const)
      rows.push(
        await phase(`${label} (2 APIs, one port)`, `http://127.0.0.1:${port}`, load, phaseRate, 180, async (ctl) => {
          await sleep(5_000);
          ctl.faultAt();
          for (const [i, running] of pair.entries()) {
            const t = Date.now();
            running.child.kill('SIGTERM');
            const [code] = await once(running.child, 'exit');
            const exited = Date.now() - t;
            pair[i] = await startShared();
            ctl.note(
              `API ${i + 1}: exit ${code} ${exited} ms after SIGTERM, successor listening ${Date.now() - t} ms after`,
            );
            await sleep(3_000);
          }
          ctl.faultRemoved();
          await sleep(5_000);
        }),
      );
    for (const running of pair) running.child.kill('SIGTERM');
  }

  // 9. Elasticsearch frozen: every node SIGSTOPped, under few and under many connections (closed loops).
  if (selected.has('9'))
    for (const [label, phaseConnections] of [
      ['9a', 4],
      ['9b', 64],
    ] as const)
      rows.push(
        await phase(
          `${label} every node frozen 8 s, ${phaseConnections} connections`,
          apiUrl,
          requests,
          undefined,
          120,
          async (ctl) => {
            await sleep(5_000);
            ctl.faultAt();
            for (const node of c.nodes) node.freeze();
            await sleep(8_000);
            for (const node of c.nodes) node.thaw();
            ctl.faultRemoved();
            const thawedAt = Date.now();
            const ok = await waitFor(async () => (await fetch(`${apiUrl}/health/ready`)).ok, 60_000, 250);
            ctl.note(
              `ready again ${ok ? `${Math.round((Date.now() - thawedAt) / 100) / 10} s after the thaw` : 'not within 60 s'}`,
            );
            await sleep(5_000);
          },
          phaseConnections,
        ),
      );

  // 6. Soak at half the maximum rate; the API's RSS and heap each minute.
  const soakRate = Math.max(1, Math.round(maxRate / 2));
  const memory: { minute: number; rss_mb: number; heap_used_mb: number }[] = [];
  const readMemory = () => {
    const lines = readFileSync(memoryFile, 'utf8').trim().split('\n');
    const m = JSON.parse(lines[lines.length - 1] as string) as { rss: number; heapUsed: number };
    return { rss_mb: Math.round(m.rss / 1048576), heap_used_mb: Math.round(m.heapUsed / 1048576) };
  };
  if (selected.has('6'))
    rows.push(
      await phase(`6 soak ${soakMinutes} min`, apiUrl, requests, soakRate, soakMinutes * 60 + 5, async () => {
        memory.push({ minute: 0, ...readMemory() });
        for (let minute = 1; minute <= soakMinutes; minute++) {
          await sleep(60_000);
          memory.push({ minute, ...readMemory() });
          log(`  soak minute ${minute}: ${JSON.stringify(memory[memory.length - 1])}`);
        }
      }),
    );

  printTable(rows);
  console.log(
    `\nmaximum rate ${maxRate} req/s; steady ${rate} req/s; soak at ${soakRate} req/s; API memory per minute:`,
  );
  console.log(`| minute | RSS MB | heap used MB |\n| --- | --- | --- |`);
  for (const m of memory) console.log(`| ${m.minute} | ${m.rss_mb} | ${m.heap_used_mb} |`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = join(RESULTS_DIR, `chaos-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ maxRate, steadyRate: rate, soakRate, short: args.short, rows, memory }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${out}`);
  await admin.close();
}

async function cleanup() {
  if (args['api-cpu-prof'] && api && api.exitCode === null) {
    // The profile is written when the process exits on its own (SIGTERM: a graceful drain).
    api.kill('SIGTERM');
    await Promise.race([once(api, 'exit'), sleep(30_000)]);
  }
  for (const child of children) child.kill('SIGKILL');
  await cluster?.stop().catch(() => {});
}

process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
try {
  await main();
} finally {
  await cleanup();
}
