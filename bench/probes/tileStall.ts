/**
 * Where the uncached-tile p99 of `npm run bench -- --only tiles` comes from (issue 38): the bench's tile sequence
 * with the tiles cut ahead (seeding, then cached zoom-8 tiles for the rate, a zoom-11 warm-up, new zoom 12-14 tiles
 * as fast as answered, then open loops at half the cached rate), with the API watched from
 * inside (bench/support/stallWatch.mjs: its event-loop delay and stalls, garbage collections, the main thread's wait
 * for a core, and per request how long Node took from parsing it to finishing the answer and which path answered a
 * tile: store, empty or cut) and every open-loop request's due time, send lag, TCP connect and latency. The open loops
 * at half the cached rate alternate the generator's two ways (a new connection when none is free, as the bench did;
 * `--connections` opened first, as it does now), two runs each. For each open loop it
 * prints where the slowest 1 % spent their time: late sending (the generator), the API's handling, or queued
 * between (in sockets or behind other work), and what the API did in the seconds they fell in.
 *
 *   ELASTICSEARCH_URL=... npx tsx bench/probes/tileStall.ts [--prefix bench-bulk-] [--rate R] [--seconds 10] [--connections 256]
 *
 * `--rate`: the half-cached rate to ask instead of measuring it. Heavy (a load run): under `flock /work/heavy.lock`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiProcess } from '../support/apiProcess.js';
import { BENCH_API_KEY, BENCH_SEED, REPO_ROOT } from '../support/defaults.js';
import { atRate, drive, type Scenario } from '../support/loadDriver.js';
import { type OpenLoopResult, quantile } from '../support/openLoop.js';
import { seededRandom } from '../support/random.js';
import { freshTiles, tilePaths } from '../support/tileScenarios.js';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'bench-bulk-' },
    rate: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '256' },
  },
});
const seconds = Number(args.seconds);
const fresh = freshTiles(seededRandom(BENCH_SEED));
const cut = (a: number, b: number) => fresh.slice(Math.floor(fresh.length * a), Math.floor(fresh.length * b));
const [forCapacity, forHalfRate, forHalfCapacity] = [cut(0, 0.35), cut(0.35, 0.8), cut(0.8, 1)];

const uptime = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load average/, 'load');
const watchFile = join(mkdtempSync(join(tmpdir(), 'tile-stall-')), 'watch.jsonl');
console.log(`start: ${uptime()}; API watch in ${watchFile}`);
const api = await startApiProcess({
  elasticsearchUrl: process.env.ELASTICSEARCH_URL!,
  indexPrefix: args.prefix,
  apiKey: BENCH_API_KEY,
  imports: [join(REPO_ROOT, 'bench/support/stallWatch.mjs')],
  env: { TILE_SEEDING: 'true', STALL_WATCH_OUT: watchFile },
});
const headers = { 'x-api-key': BENCH_API_KEY, 'accept-encoding': 'br, gzip' };
const scenario = (requests: string[]): Scenario => ({
  name: 'tiles',
  target: 'api',
  url: api.url,
  headers,
  requests: requests.map((path) => ({ method: 'GET', path })),
});
const settings = { connections: 16, duration: seconds, warmup: 3 };

try {
  await fetch(`${api.url}/tiles/boundaries.json`, { headers });
  let seeding: { state: string; seconds?: number; tiles?: number } = { state: 'seeding' };
  while (seeding.state === 'seeding') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    seeding = ((await (await fetch(`${api.url}/health`, { headers })).json()) as { tile_seeding: typeof seeding })
      .tile_seeding;
  }
  console.log(`seeding ${seeding.state}: ${seeding.tiles} tiles in ${seeding.seconds} s; ${uptime()}`);
  const cached = await drive(settings, scenario(tilePaths([8])));
  const halfRate = args.rate ? Number(args.rate) : Math.round(cached.requests_per_s / 2);
  console.log(`cached zoom-8 tiles: ${cached.requests_per_s}/s, p99 ${cached.p99_ms} ms; half: ${halfRate}/s`);
  await atRate(scenario(tilePaths([11])), halfRate, settings.warmup);
  const capacity = await drive({ ...settings, warmup: 0 }, scenario(forCapacity));
  console.log(`capacity: ${capacity.requests_per_s}/s, p50 ${capacity.p50_ms} p99 ${capacity.p99_ms}; ${uptime()}`);
  // At half the cached rate, the generator opening a connection whenever none is free (as the bench did) and over
  // `--connections` kept ones (as it does now), alternating, each run on its own quarter of the tiles left.
  const rest = [...forHalfRate, ...forHalfCapacity];
  const quarter = Math.floor(rest.length / 4);
  for (let i = 0; i < 4; i++) {
    const connections = i % 2 === 0 ? undefined : Number(args.connections);
    const list = rest.slice(i * quarter, (i + 1) * quarter);
    const result = await openLoopWithSamples(list, halfRate, connections);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the watch's last second written
    const how = connections ? `over ${connections} connections opened first` : 'a new connection when none is free';
    report(`half the cached rate, ${how}`, halfRate, list, result);
  }
} finally {
  api.process.kill('SIGINT');
}

/** The machine's TCP counters (/proc/net/netstat): listen-queue overflows and SYN retransmissions. */
function tcpCounters(): Record<string, number> {
  const lines = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('TcpExt:'));
  const [names, values] = lines.map((l) => l.split(/\s+/).slice(1));
  const all = Object.fromEntries(names!.map((name, i) => [name, Number(values![i])]));
  return { ListenOverflows: all.ListenOverflows!, TCPSynRetrans: all.TCPSynRetrans! };
}

/**
 * The API's listening socket's accept queue (connections the kernel holds that the process has not accepted), read
 * every 250 ms: /proc/net/tcp lists every socket of the machine (~8 ms of kernel time at 2,700 sockets).
 */
function acceptQueue(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && f[1]?.endsWith(`:${hex}`)) return parseInt(f[4]!.split(':')[1]!, 16);
    }
  }
  return -1;
}

async function openLoopWithSamples(
  list: readonly string[],
  rate: number,
  connections?: number,
): Promise<OpenLoopResult> {
  const { openLoop } = await import('../support/openLoop.js');
  const port = Number(new URL(api.url).port);
  const before = tcpCounters();
  let queueMax = 0;
  const queueAt: string[] = [];
  const t0 = performance.now();
  const sampler = setInterval(() => {
    const q = acceptQueue(port);
    if (q > queueMax) queueMax = q;
    if (q > 0) queueAt.push(`${((performance.now() - t0) / 1000).toFixed(2)}s:${q}`);
  }, 250);
  try {
    return await openLoop({
      url: api.url,
      requests: list.map((path) => ({ method: 'GET', path })),
      headers,
      rate,
      seconds,
      keepSamples: true,
      ...(connections ? { connections } : {}),
    });
  } finally {
    clearInterval(sampler);
    const after = tcpCounters();
    console.log(
      `\n(machine TCP during the run: listen-queue overflows +${after.ListenOverflows! - before.ListenOverflows!}, ` +
        `SYN retransmissions +${after.TCPSynRetrans! - before.TCPSynRetrans!}; the API's accept queue max ${queueMax}` +
        `${queueAt.length ? `, non-empty at ${queueAt.slice(0, 20).join(' ')}` : ''})`,
    );
  }
}

interface Watched {
  type: 'req' | 'second' | 'stall' | 'gc' | 'conn';
  at: number;
  ms: number;
  url?: string;
  nth?: number;
  status?: number;
  source?: string;
  tileMs?: number;
  loopP99?: number;
  loopMax?: number;
  cpuMs?: number;
  runqueueMs?: number;
  machineMs?: number;
  stealMs?: number;
  gcMs?: number;
  gcs?: number;
  kind?: number;
}

function report(name: string, rate: number, list: readonly string[], result: OpenLoopResult) {
  const watched = readFileSync(watchFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Watched);
  const start = result.startedAt;
  const end = start + seconds * 1000 + 5000;
  const during = watched.filter((w) => w.at >= start - 1000 && w.at <= end);
  // A tile asked twice (a list shorter than the run) pairs with its server records in order.
  const byUrl = new Map<string, Watched[]>();
  for (const w of during.filter((w) => w.type === 'req').sort((a, b) => a.at - b.at)) {
    byUrl.set(w.url!, [...(byUrl.get(w.url!) ?? []), w]);
  }
  const bySent = [...result.samples].sort((a, b) => a.dueMs - b.dueMs);
  const rows = bySent.map((s) => {
    const server = byUrl.get(list[s.index % list.length]!)?.shift();
    const serverMs = server?.ms ?? NaN;
    // Arrival at Node (parsed) after it was due, less the generator's lateness: in the sockets or waiting for the loop.
    const beforeParse = server ? server.at - (start + s.dueMs) - s.sendLagMs : NaN;
    return {
      ...s,
      serverMs,
      beforeParse,
      source: server?.source ?? '?',
      status: server?.status,
      tileMs: server?.tileMs,
      newConnection: server?.nth === 1,
    };
  });
  const sorted = rows.map((r) => r.latencyMs).sort((a, b) => a - b);
  const p99 = quantile(sorted, 0.99);
  const slow = rows.filter((r) => r.latencyMs >= p99);
  const q = (values: number[], p: number) =>
    quantile(
      [...values].filter(Number.isFinite).sort((a, b) => a - b),
      p,
    );
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
  const part = (label: string, pick: (r: (typeof rows)[number]) => number) =>
    `${label} p50 ${fmt(q(slow.map(pick), 0.5))} max ${fmt(q(slow.map(pick), 1))} (all: p50 ${fmt(q(rows.map(pick), 0.5))}, p99 ${fmt(q(rows.map(pick), 0.99))})`;
  const count = (list: { source: string }[]) =>
    Object.entries(list.reduce<Record<string, number>>((n, r) => ((n[r.source] = (n[r.source] ?? 0) + 1), n), {}))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  console.log(
    `\n== ${name}: ${rate}/s, ${result.sent} sent, ${result.ok} 2xx; p50 ${result.p50_ms} p99 ${result.p99_ms} max ` +
      `${result.max_ms} ms; ${uptime()}`,
  );
  console.log(
    `  sources, all: ${count(rows)}; the slowest 1 % (>= ${p99.toFixed(1)} ms, ${slow.length}): ${count(slow)}`,
  );
  console.log(`  the slowest 1 %: ${part('generator late', (r) => r.sendLagMs)}`);
  console.log(`                   ${part('TCP connect (new connections)', (r) => r.connectMs)}`);
  console.log(`                   ${part('before Node parsed it', (r) => r.beforeParse)}`);
  console.log(`                   ${part('API parse to finish', (r) => r.serverMs)}`);
  console.log(`                   ${part('tile() inside the handler', (r) => r.tileMs ?? NaN)}`);
  const firsts = (of: typeof rows) => of.filter((r) => r.newConnection).length;
  const conns = during.filter((w) => w.type === 'conn' && w.at >= start && w.at <= start + seconds * 1000).length;
  console.log(
    `  on a new connection: ${firsts(slow)} of the slowest 1 %, ${firsts(rows)} of all; connections accepted during ` +
      `the run: ${conns}`,
  );
  const newConns = new Map<number, number>();
  for (const w of during.filter((w) => w.type === 'conn')) {
    const at = Math.floor((w.at - start) / 100);
    newConns.set(at, (newConns.get(at) ?? 0) + 1);
  }
  console.log(
    `  connections accepted by 100 ms: ${[...newConns]
      .sort((a, b) => a[0] - b[0])
      .map(([w, n]) => `${(w / 10).toFixed(1)}s:${n}`)
      .join(' ')}`,
  );
  for (const source of ['store', 'empty', 'cut']) {
    const of = rows.filter((r) => r.source === source);
    if (of.length)
      console.log(
        `  ${source}: ${of.length}, latency p50 ${fmt(
          q(
            of.map((r) => r.latencyMs),
            0.5,
          ),
        )} p99 ${fmt(
          q(
            of.map((r) => r.latencyMs),
            0.99,
          ),
        )}, API ms p99 ${fmt(
          q(
            of.map((r) => r.serverMs),
            0.99,
          ),
        )}`,
      );
  }
  const windows = new Map<number, number>();
  for (const r of slow) windows.set(Math.floor(r.dueMs / 100), (windows.get(Math.floor(r.dueMs / 100)) ?? 0) + 1);
  console.log(
    `  slow by due time (100 ms windows): ${[...windows]
      .sort((a, b) => a[0] - b[0])
      .map(([w, n]) => `${(w / 10).toFixed(1)}s:${n}`)
      .join(' ')}`,
  );
  const rel = (at: number) => ((at - start) / 1000).toFixed(2);
  for (const w of during.filter((w) => w.type === 'stall' || w.type === 'gc')) {
    console.log(
      `  ${w.type} at ${rel(w.at)} s: ${w.ms.toFixed(1)} ms${w.kind !== undefined ? ` (kind ${w.kind})` : ''}`,
    );
  }
  for (const w of during.filter((w) => w.type === 'second')) {
    console.log(
      `  second ending ${rel(w.at)} s: loop p99 ${fmt(w.loopP99!)} max ${fmt(w.loopMax!)} ms, CPU ${fmt(w.cpuMs!)} ms, ` +
        `waiting for a core ${fmt(w.runqueueMs!)} ms, GC ${w.gcs} ${fmt(w.gcMs!)} ms; the machine busy ` +
        `${fmt(w.machineMs!)} of 2,000 ms, stolen ${fmt(w.stealMs!)} ms`,
    );
  }
}
