/**
 * Where the API's CPU goes for new (uncached) boundary tiles: the API as a production process under `--cpu-prof`,
 * its levels' indexes built by zoom-11 tiles first, then 16 connections asking zoom 12-14 tiles over NL+BE that no
 * one asked before (shuffled, seeded, each once) as fast as they are answered. Prints the rate and the API's self
 * time by package/folder and by frame, and its CPU per tile.
 *
 *   ELASTICSEARCH_URL=... npx tsx bench/probes/tileProfile.ts [--prefix bench-bulk-] [--seconds 10]
 *
 * Heavy (a load run): under `flock /work/heavy.lock` on a shared machine.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tilesOver } from '../../test/support/vectorTiles.js';
import { startApiProcess } from '../support/apiProcess.js';
import { formatSelfTimes, newestProfile, selfTimes } from '../support/cpuProfile.js';
import { BENCH_API_KEY } from '../support/defaults.js';
import { load } from '../support/loadDriver.js';
import { seededRandom } from '../support/random.js';

const { values: args } = parseArgs({
  options: { prefix: { type: 'string', default: 'bench-bulk-' }, seconds: { type: 'string', default: '10' } },
});
const NL_BE: [number, number, number, number] = [2.5, 49.45, 7.25, 53.6];
const paths = (zooms: number[]) =>
  zooms.flatMap((z) => tilesOver(NL_BE, z).map(({ x, y }) => `/tiles/boundaries/${z}/${x}/${y}.mvt`));
const random = seededRandom(38);
const fresh = paths([12, 13, 14]);
for (let i = fresh.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [fresh[i], fresh[j]] = [fresh[j]!, fresh[i]!];
}

const dir = mkdtempSync(join(tmpdir(), 'tile-profile-'));
const api = await startApiProcess({
  elasticsearchUrl: process.env.ELASTICSEARCH_URL!,
  indexPrefix: args.prefix,
  apiKey: BENCH_API_KEY,
  nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
const headers = { 'x-api-key': BENCH_API_KEY, 'accept-encoding': 'br, gzip' };
const scenario = (requests: string[]) => ({
  name: 'tiles',
  target: 'api' as const,
  url: api.url,
  headers,
  requests: requests.map((path) => ({ method: 'GET' as const, path })),
});
const settings = { connections: 16, duration: Number(args.seconds), warmup: 0 };
await load(settings, scenario(paths([11])), 5);
const cpuBefore = await cpuMs(api.process.pid!);
const result = await load(settings, scenario(fresh), settings.duration);
const cpu = (await cpuMs(api.process.pid!)) - cpuBefore;
api.process.kill('SIGINT');
await new Promise((resolve) => api.process.once('exit', resolve));
const tiles = result.requests.total;
const msPerTile = cpu / tiles;
const { frames, owners } = selfTimes(newestProfile(dir));
console.log(
  `${tiles} new tiles in ${settings.duration} s: ${Math.round(result.requests.average)}/s, p50 ${result.latency.p50} ms, ` +
    `p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; API CPU ${msPerTile.toFixed(3)} ms a tile ` +
    `(the profile also holds the warm-up and the start)`,
);
console.log(formatSelfTimes(owners, 15, msPerTile));
console.log(formatSelfTimes(frames, 30, msPerTile));

/** User + system CPU of a process so far, from /proc (Linux). */
async function cpuMs(pid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
