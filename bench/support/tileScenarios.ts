/**
 * The boundary tiles in `npm run bench` (issue 38's targets), on the bulk data:
 *
 * - cached: zoom-8 tiles over NL+BE (the body cache answers them after the warm-up) against the cached GeoJSON
 *   answers a map would otherwise ask, `/provinces/{id}/municipalities/geojson`, both compressed as a browser asks,
 *   in interleaved rounds (req/s ratio, target >= 0.9);
 * - uncached: tiles of zooms 12-14 over NL+BE no client has asked before (shuffled, seeded; none repeats within
 *   the bench), as fast as they are answered (the capacity for new tiles), at half of the cached tile rate (p99,
 *   target <= 50 ms) and at half that capacity, each open loop over 256 connections opened before it (the map
 *   clients' own); the warm-up asks zoom-11 tiles, so the levels' indexes are built before the measured runs but
 *   their tiles are still uncut;
 * - forward geocoding from 6 clients alone and beside 4 clients panning over zoom-12 tiles (bench/support/looper.ts
 *   in its own process; target >= 0.8x): as fast as they are answered (the worst case: ~400 tiles/s each), and at a
 *   map's pace (each client one tile every 33 ms, 30 tiles/s: about three times what a fast drag asks at zoom 12,
 *   two new columns of 512 px tiles a second).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tilesOver } from '../../test/support/vectorTiles.js';
import { REPO_ROOT, RESULTS_DIR } from './defaults.js';
import { atRate, drive, type LoadSettings, rateRow, type Row, type Scenario } from './loadDriver.js';

type Box = [number, number, number, number];
/** The Netherlands and Belgium. */
const NL_BE: Box = [2.5, 49.45, 7.25, 53.6];
const ROUNDS = 2;
/**
 * The open loops' connections, opened before each run and kept (bench/support/openLoop.ts): the connections of the
 * map clients asking the tiles (~2,400 new tiles a second is ~100 clients dragging at zoom 12; a browser holds at most
 * 6 per host, opened with the page). Without them the generator opened a connection for each tile due while the others
 * were busy: after a hiccup, hundreds at once, past the API's accept queue, and their SYNs retried 1 s later.
 */
const OPEN_LOOP_CONNECTIONS = 256;
/** A panning client's pause after each tile in the paced run: 30 tiles a second. */
const PAN_PAUSE_MS = 33;

const tilePath = (z: number, x: number, y: number) => `/tiles/boundaries/${z}/${x}/${y}.mvt`;
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The tiles of these zooms over a box (by default NL and BE), as the bench asks them. */
export function tilePaths(zooms: number[], box: Box = NL_BE): string[] {
  return zooms.flatMap((z) => tilesOver(box, z).map(({ x, y }) => tilePath(z, x, y)));
}

/** The zoom 12-14 tiles over NL and BE in a seeded shuffled order: the uncached runs' tiles, each asked once. */
export function freshTiles(random: () => number): string[] {
  return shuffled(tilePaths([12, 13, 14]), random);
}

/** A seeded Fisher-Yates shuffle (a copy). */
export function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * A map panning over zoom `z`: bands of three tile rows swept west to east, each step the new column's three tiles
 * (what a client holding the rest in its own cache asks).
 */
export function panRoute(box: Box, z: number): string[] {
  const tiles = tilesOver(box, z);
  const ys = [...new Set(tiles.map((t) => t.y))].sort((a, b) => a - b);
  const xs = [...new Set(tiles.map((t) => t.x))].sort((a, b) => a - b);
  const route: string[] = [];
  for (let band = 0; band < ys.length; band += 3) {
    for (const x of xs) for (const y of ys.slice(band, band + 3)) route.push(tilePath(z, x, y));
  }
  return route;
}

/** `bench/support/looper.ts` over a list of URLs, each connection from its own place in it, in its own process. */
async function panners(
  urls: string[],
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  pauseMs: number,
) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'tile-pan-urls.json');
  writeFileSync(file, JSON.stringify(urls));
  const headerArgs = Object.entries(headers).map(([k, v]) => `${k}=${v}`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/support/looper.ts', `@${file}`, String(connections), String(seconds), ...headerArgs],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOOPER_PAUSE_MS: String(pauseMs) } },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  return JSON.parse(out) as { requests: number; statuses: Record<string, number>; p50_ms: number; p99_ms: number };
}

export interface TileBenchOptions {
  settings: LoadSettings;
  apiUrl: string;
  headers: Record<string, string>;
  provinceIds: string[];
  /** The API's exact forward geocoding scenario (the mixed run's geocoding load). */
  forward: Scenario;
  random: () => number;
  log: (message: string) => void;
}

export async function runTileScenarios(options: TileBenchOptions) {
  const { settings, apiUrl, provinceIds, forward, random, log } = options;
  const headers = { ...options.headers, 'accept-encoding': 'br, gzip' };
  const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
  const scenario = (name: string, paths: string[]): Scenario => ({
    name,
    target: 'api',
    url: apiUrl,
    headers,
    wireBytes: true,
    requests: get(paths),
  });
  const cachedTiles = scenario('tiles z8 NL+BE, cached', tilePaths([8]));
  const cachedGeojson = scenario(
    'provinces/{id}/municipalities/geojson, cached',
    provinceIds.map((id) => `/provinces/${id}/municipalities/geojson`),
  );
  const rows: Row[] = [];
  const roundRatios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(`tiles: cached tiles against cached GeoJSON, round ${round}/${ROUNDS}`);
    const tile = await drive(settings, cachedTiles);
    const geojson = await drive(settings, cachedGeojson);
    rows.push({ ...tile, scenario: `${tile.scenario} (round ${round})` });
    rows.push({ ...geojson, scenario: `${geojson.scenario} (round ${round})` });
    roundRatios.push(round2(tile.requests_per_s / geojson.requests_per_s));
  }
  const cachedRate = rows.filter((r) => r.scenario.startsWith('tiles z8')).map((r) => r.requests_per_s);
  const halfRate = Math.max(1, Math.round(cachedRate.reduce((a, b) => a + b, 0) / cachedRate.length / 2));

  // Uncached: the warm-up's tiles (zoom 11) are not the measured runs' (zooms 12-14, each asked once in the whole
  // bench: three disjoint parts of one shuffled list). First as fast as they are answered (the capacity for new
  // tiles), then at half the cached rate (issue 38's target), then at half that capacity (where the p99 holds).
  const fresh = freshTiles(random);
  const [forCapacity, forHalfRate, forHalfCapacity] = [
    fresh.slice(0, Math.floor(fresh.length * 0.35)),
    fresh.slice(Math.floor(fresh.length * 0.35), Math.floor(fresh.length * 0.8)),
    fresh.slice(Math.floor(fresh.length * 0.8)),
  ];
  log(`tiles: uncached tiles as fast as answered (capacity)`);
  if (settings.warmup > 0) {
    await atRate(scenario('warm-up', tilePaths([11])), halfRate, settings.warmup, OPEN_LOOP_CONNECTIONS);
  }
  const capacity = await drive({ ...settings, warmup: 0 }, scenario('uncached', forCapacity));
  rows.push({ ...capacity, scenario: 'tiles z12-14 NL+BE, uncached, as fast as answered (capacity)' });
  if (capacity.requests > forCapacity.length) log(`tiles: the capacity run asked some of its tiles twice`);
  const openRun = async (paths: string[], rate: number, name: string) => {
    const needed = rate * settings.duration;
    if (needed > paths.length) log(`tiles: ${needed} uncached tiles wanted, ${paths.length} left: some repeat`);
    log(`tiles: uncached tiles at ${rate} req/s (${name})`);
    const result = await atRate(scenario('uncached', paths), rate, settings.duration, OPEN_LOOP_CONNECTIONS);
    rows.push(rateRow(`tiles z12-14 NL+BE, uncached, at ${name}`, 'api', result, rate));
    return result;
  };
  const uncached = await openRun(forHalfRate, halfRate, 'half the cached rate');
  const halfCapacity = Math.max(1, Math.round(capacity.requests_per_s / 2));
  const atHalfCapacity = await openRun(forHalfCapacity, halfCapacity, 'half its capacity');

  // Geocoding beside panning map clients, as fast as they are answered and at a map's pace; each run beside the
  // panners right after one alone, so that a pair sees the same machine (it is shared).
  const alone = { ...forward, name: 'tiles mixed: forward exact, 6 clients alone', connections: 6 };
  const route = panRoute(NL_BE, 12).map((path) => `${apiUrl}${path}`);
  const together: Record<string, number> = {};
  for (const [pace, pauseMs] of [
    ['as fast as answered', 0],
    ['one tile per 33 ms each', PAN_PAUSE_MS],
  ] as const) {
    log(`tiles: ${alone.name}, before the panners ${pace}`);
    const aloneRow = await drive(settings, alone);
    rows.push({ ...aloneRow, scenario: `${alone.name} (before: ${pace})` });
    const beside = { ...alone, name: `tiles mixed: forward exact, 6 clients + 4 panning, ${pace}` };
    log(`tiles: ${beside.name}`);
    const [row, pans] = await Promise.all([
      drive(settings, beside),
      panners(route, headers, 4, settings.warmup + settings.duration, pauseMs),
    ]);
    const panFailed = pans.statuses['0'] ?? 0;
    const panOk = Object.entries(pans.statuses)
      .filter(([status]) => status.startsWith('2'))
      .reduce((sum, [, n]) => sum + n, 0);
    rows.push(row, {
      scenario: `tiles mixed: the 4 clients panning over zoom-12 tiles, ${pace}`,
      target: 'api',
      requests: pans.requests,
      requests_per_s: Math.round(pans.requests / (settings.warmup + settings.duration)),
      p50_ms: pans.p50_ms,
      p99_ms: pans.p99_ms,
      errors: panFailed,
      non2xx: pans.requests - panOk - panFailed,
    });
    together[pace] = round2(row.requests_per_s / aloneRow.requests_per_s);
  }

  const ratios = {
    'cached tile / cached GeoJSON, per round': roundRatios,
    'uncached tile p99 ms at half the cached rate': uncached.p99_ms,
    'uncached tiles per second as fast as answered': capacity.requests_per_s,
    'uncached tile p99 ms at half that': atHalfCapacity.p99_ms,
    'forward beside 4 tile panners / alone': together,
  };
  return { rows, ratios };
}
