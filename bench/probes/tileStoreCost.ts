/**
 * What a tile served from the seeded store costs the API against a tile served from the body cache, at the same
 * rate, in one API process under `--cpu-prof` (issue 38: new-tile capacity 2,744-5,891/s against ~4,800 cached): the
 * tiles cut ahead first, then alternating open-loop phases of cached zoom-8 tiles and of new zoom 12-14 tiles over
 * NL+BE (from the store; each asked once), `--rounds` of each. Prints each phase's API CPU per request (from /proc)
 * and, from the profile's samples within the phases of each kind, the self time by owner and by frame in ms a request.
 *
 *   ELASTICSEARCH_URL=... npx tsx bench/probes/tileStoreCost.ts [--prefix bench-bulk-] [--rate 1500] [--seconds 8]
 *
 * Heavy (a load run): under `flock /work/heavy.lock`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiProcess } from '../support/apiProcess.js';
import { type CpuProfile, formatSelfTimes, newestProfile, selfTimes } from '../support/cpuProfile.js';
import { BENCH_API_KEY, BENCH_SEED } from '../support/defaults.js';
import { openLoop } from '../support/openLoop.js';
import { processCpuMs } from '../support/processCpu.js';
import { seededRandom } from '../support/random.js';
import { freshTiles, tilePaths } from '../support/tileScenarios.js';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'bench-bulk-' },
    rate: { type: 'string', default: '1500' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
  },
});
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const fresh = freshTiles(seededRandom(BENCH_SEED));
const uptime = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load average/, 'load');

const dir = mkdtempSync(join(tmpdir(), 'tile-store-cost-'));
const api = await startApiProcess({
  elasticsearchUrl: process.env.ELASTICSEARCH_URL!,
  indexPrefix: args.prefix,
  apiKey: BENCH_API_KEY,
  nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  env: { TILE_SEEDING: 'true' },
});
const headers = { 'x-api-key': BENCH_API_KEY, 'accept-encoding': 'br, gzip' };
await fetch(`${api.url}/tiles/boundaries.json`, { headers });
for (let state = 'seeding'; state === 'seeding';) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  state = ((await (await fetch(`${api.url}/health`, { headers })).json()) as { tile_seeding: { state: string } })
    .tile_seeding.state;
}
const run = (list: string[], secs: number) =>
  openLoop({ url: api.url, requests: list.map((path) => ({ method: 'GET', path })), headers, rate, seconds: secs });
// Warm: the zoom-8 tiles into the body cache, the store path's code compiled (on tiles the phases do not ask).
const cachedList = tilePaths([8]);
await run(cachedList, 3);
let next = 0;
const take = (n: number) => fresh.slice(next, (next += n));
await run(take(rate * 2), 2);

interface Phase {
  kind: 'cached' | 'store';
  fromUs: number;
  toUs: number;
  cpuMs: number;
  requests: number;
  p99: number;
  statuses: Record<string, number>;
}
const phases: Phase[] = [];
for (let round = 0; round < Number(args.rounds); round++) {
  for (const kind of ['cached', 'store'] as const) {
    const list = kind === 'cached' ? cachedList : take(rate * seconds);
    const cpu = processCpuMs(api.process.pid)!;
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const result = await run(list, seconds);
    const toUs = Number(process.hrtime.bigint() / 1000n);
    phases.push({
      kind,
      fromUs,
      toUs,
      cpuMs: processCpuMs(api.process.pid)! - cpu,
      requests: result.sent,
      p99: result.p99_ms,
      statuses: result.statuses,
    });
    console.log(
      `${kind} round ${round + 1}: ${result.sent} at ${rate}/s, p50 ${result.p50_ms} p99 ${result.p99_ms} ms, ` +
        `${JSON.stringify(result.statuses)}, API CPU ${((processCpuMs(api.process.pid)! - cpu) / result.sent).toFixed(3)} ms a request; ${uptime()}`,
    );
  }
}
api.process.kill('SIGINT');
await new Promise((resolve) => api.process.once('exit', resolve));
const profile = newestProfile(dir) as CpuProfile & { startTime: number };
for (const kind of ['cached', 'store'] as const) {
  const mine = phases.filter((p) => p.kind === kind);
  const msPerRequest = mine.reduce((n, p) => n + p.cpuMs, 0) / mine.reduce((n, p) => n + p.requests, 0);
  const { frames, owners } = selfTimes(within(profile, mine));
  console.log(`\n== ${kind}: API CPU ${msPerRequest.toFixed(3)} ms a request`);
  console.log(formatSelfTimes(owners, 14, msPerRequest));
  console.log(formatSelfTimes(frames, 30, msPerRequest));
}

/** The profile's samples taken inside the phases (CLOCK_MONOTONIC microseconds, as process.hrtime here). */
function within(p: CpuProfile & { startTime: number }, windows: Phase[]): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (windows.some((w) => at >= w.fromUs && at <= w.toUs)) {
      samples.push(id);
      timeDeltas.push(p.timeDeltas[i] ?? 0);
    }
  });
  return { nodes: p.nodes, samples, timeDeltas };
}
