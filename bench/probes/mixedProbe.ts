/**
 * `npm run bench:mixed -- [--root DIR ...] [--rounds N] [--duration S] [--phases LIST] [--prefix P]`
 *
 * Where forward geocoding's rate goes when map clients loop over /countries/geojson (issue 23), for one or more
 * API builds (`--root`: another checkout, repeatable; default this one), round by round so a shared box's noise
 * falls on each alike. Phases: forward from 6 clients `alone`; `together autocannon` with 4 clients looping
 * /countries/geojson as `npm run bench` runs them (autocannon's CLI in its own process); `together lean` with the
 * same 4 loopers as a lean node:http client (bench/support/looper.ts); `lean loopers alone`. Per phase: rates,
 * latencies, the CPU share of the API, Elasticsearch, the forward generator (this process) and the looper process
 * from /proc, and the API's event-loop delay (bench/support/eventLoopProbe.ts). Needs ELASTICSEARCH_URL holding
 * `--prefix` (default `bench-bulk-`); reads only.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { startApiProcess } from '../support/apiProcess.js';
import { sampleAddresses, streetBodies } from '../support/benchQueries.js';
import { load, type Scenario } from '../support/loadDriver.js';
import { elasticsearchPid, ownCpuMs, processCpuMs } from '../support/processCpu.js';
import { seededRandom } from '../support/random.js';
import { BENCH_API_KEY, BENCH_SEED, BULK_PREFIX, REPO_ROOT } from '../support/defaults.js';
import { interleave } from '../support/interleave.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '8' },
    prefix: { type: 'string', default: BULK_PREFIX },
    phases: { type: 'string', default: 'alone,together autocannon,together lean,lean loopers alone' },
  },
});
const esUrl = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:39185';
const duration = Number(args.duration);
const probeDir = mkdtempSync(join(tmpdir(), 'mixed-probe-'));
const mapHeaders = { 'x-api-key': BENCH_API_KEY, 'accept-encoding': 'br, gzip' };

interface LooperResult {
  requests: number;
  bytes: number;
}

/** 4 clients looping /countries/geojson in their own process: autocannon's CLI, as apiBench.ts, or the lean looper. */
function startLoopers(kind: 'autocannon' | 'lean', url: string, seconds: number) {
  const target = `${url}/countries/geojson`;
  const argv =
    kind === 'autocannon'
      ? [
          join(REPO_ROOT, 'node_modules', 'autocannon', 'autocannon.js'),
          ...['-j', '-c', '4', '-d', String(seconds)],
          ...Object.entries(mapHeaders).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
          target,
        ]
      : [
          ...['--import', 'tsx', join(REPO_ROOT, 'bench/support/looper.ts'), target, '4', String(seconds)],
          ...Object.entries(mapHeaders).map(([k, v]) => `${k}=${v}`),
        ];
  const child = spawn(process.execPath, argv, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<LooperResult>((res) =>
    child.on('exit', () => {
      const json = JSON.parse(out || '{}');
      res(
        kind === 'autocannon'
          ? { requests: json.requests?.total ?? 0, bytes: json.throughput?.total ?? 0 }
          : { requests: json.requests ?? 0, bytes: json.bytes ?? 0 },
      );
    }),
  );
  return { pid: child.pid!, done };
}

async function eventLoopDelay(pid: number): Promise<{ p99?: number; max?: number }> {
  const file = join(probeDir, `event-loop-${pid}.json`);
  if (existsSync(file)) unlinkSync(file);
  process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

const client = createElasticsearchClient({ url: esUrl, requestTimeoutMs: 600_000 });
const esPid = await elasticsearchPid(client);
const addresses = await sampleAddresses(client, args.prefix, 2000, BENCH_SEED);
const forwardRequests = streetBodies(addresses, false, seededRandom(BENCH_SEED)).map((b) => ({
  method: 'POST' as const,
  path: '/geocode/forward',
  body: JSON.stringify(b),
}));
const apis = [];
for (const root of (args.root ?? [REPO_ROOT]).map((r) => resolve(r))) {
  const api = await startApiProcess({
    elasticsearchUrl: esUrl,
    indexPrefix: args.prefix,
    apiKey: BENCH_API_KEY,
    root,
    imports: [join(REPO_ROOT, 'bench/support/eventLoopProbe.ts')],
    env: { EVENT_LOOP_PROBE_DIR: probeDir },
  });
  apis.push({ build: root.split('/').pop()!, ...api });
}

const cpu = (pid: number | undefined) => processCpuMs(pid) ?? 0;
try {
  await interleave(apis, { rounds: Number(args.rounds), order: 'same' }, async (api) => {
    const pid = api.process.pid!;
    const forward: Scenario = {
      name: 'forward',
      target: 'api',
      url: api.url,
      headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' },
      requests: forwardRequests,
    };
    for (const phase of args.phases.split(',')) {
      const loopers = phase.includes('autocannon')
        ? startLoopers('autocannon', api.url, duration + 2)
        : phase.includes('lean')
          ? startLoopers('lean', api.url, duration + 2)
          : undefined;
      const forwardOn = !phase.includes('loopers alone');
      const settings = { connections: 6, duration, warmup: 0 };
      // Two seconds' warm-up: the loopers' first answers build the collection and fill the body cache.
      if (forwardOn) await load(settings, forward, 2);
      else await new Promise((r) => setTimeout(r, 2000));
      await eventLoopDelay(pid);
      const t0 = performance.now();
      const before = [cpu(pid), cpu(esPid), ownCpuMs(), cpu(loopers?.pid)];
      const result = forwardOn ? await load(settings, forward, duration) : undefined;
      if (!forwardOn) await new Promise((r) => setTimeout(r, duration * 1000));
      const seconds = (performance.now() - t0) / 1000;
      const after = [cpu(pid), cpu(esPid), ownCpuMs(), cpu(loopers?.pid)];
      const loop = await eventLoopDelay(pid);
      const looped = loopers ? await loopers.done : undefined;
      const share = (i: number) => `${Math.round((after[i]! - before[i]!) / seconds / 10)}%`;
      console.log(
        JSON.stringify({
          build: api.build,
          phase,
          forward_req_s: result ? Math.round(result.requests.average) : 0,
          forward_p50_ms: result?.latency.p50,
          forward_p99_ms: result?.latency.p99,
          // Over the loopers' whole run (warm-up included): their own report has no finer split.
          looper_answers_s: looped ? Math.round(looped.requests / (duration + 2)) : 0,
          looper_bytes_per_answer: looped?.requests ? Math.round(looped.bytes / looped.requests) : 0,
          cpu_api: share(0),
          cpu_elasticsearch: share(1),
          cpu_forward_generator: share(2),
          cpu_loopers: loopers ? share(3) : '-',
          api_event_loop_p99_ms: loop.p99,
          api_event_loop_max_ms: loop.max,
          load_average: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
        }),
      );
    }
  });
} finally {
  for (const api of apis) api.process.kill('SIGTERM');
}
process.exit(0);
