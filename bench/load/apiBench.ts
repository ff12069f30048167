/**
 * `npm run bench [-- --small] [--duration S] [--connections N] [--no-scaling] [--only REGEX] [--api-warmup S]
 *   [--prefix P] [--cpu-prof DIR] [--search-box-connections N]`
 *
 * Load benchmark of the API against the same queries fired straight at Elasticsearch. Starts (or reuses, via
 * ELASTICSEARCH_URL) Elasticsearch, indexes the bulk addresses with the real indexer unless already loaded,
 * starts the API as a separate production-mode process, warms it on every API scenario (warmApi), and drives each
 * scenario with autocannon at a fixed concurrency for a fixed duration after a warm-up. Queries are drawn, seeded, from the indexed data.
 * Prints one table and writes it as JSON to bench/results/ so runs can be compared.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import type { AreaDoc } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { freePort } from '../../dev/elasticsearch/localNode.js';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { exactForwardRequest, exactLookupRequest } from '../../src/features/address/addressBodies.js';
import { parseStreetQuery } from '../../src/features/address/streetRequest.js';
import { startApiProcess, waitUntilUp } from '../support/apiProcess.js';
import { ensureIndexed, scalingManifests } from '../support/datasets.js';
import { aliasesExist } from '../../indexer/generations/generations.js';
import { formatSelfTimes, newestProfile, selfTimes } from '../support/cpuProfile.js';
import { elasticsearchPid, ownCpuMs, processCpuMs, waitUntilQuiet } from '../support/processCpu.js';
import {
  freeTextPaths,
  freeTextTailPaths,
  placePaths,
  keystrokePaths,
  reversePaths,
  sampleAddresses,
  sampleAreas,
  streetBodies,
} from '../support/benchQueries.js';
import {
  drive as driveWith,
  formatTable,
  load as loadWith,
  type LoadSettings,
  type Row,
  type Scenario,
} from '../support/loadDriver.js';
import { seededRandom } from '../support/random.js';
import { runTileScenarios } from '../support/tileScenarios.js';
import { seedTilesFirst } from '../support/tileSeedPhase.js';
import { BENCH_API_KEY, BENCH_SEED, REPO_ROOT, RESULTS_DIR } from '../support/defaults.js';

/** Items per POST /geocode/batch in the batch scenario: the endpoint's maximum. */
const BATCH_ITEMS = 1000;

const { values: args } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    /** Seconds of load on each API scenario before the first counted one (the API's JIT and caches; 0: none). */
    'api-warmup': { type: 'string', default: '3' },
    /** Alias prefix of the bulk data (another build of it, e.g. a changed mapping; it must be indexed already). */
    prefix: { type: 'string' },
    connections: { type: 'string', default: '16' },
    queries: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    'no-scaling': { type: 'boolean', default: false },
    /** Fixed request rate of the CPU-per-request comparison (raw, bare hop, API). */
    'cost-rate': { type: 'string', default: '1000' },
    /** Only the scenarios whose name matches, e.g. `--only forward` (quick comparisons while profiling). */
    only: { type: 'string' },
    /** Profile the API process (node --cpu-prof) into this folder and print its top self-time frames at the end. */
    'cpu-prof': { type: 'string' },
    /** Measure the tiles with the API cutting every tile on demand (the comparison without TILE_SEEDING). */
    'no-tile-seeding': { type: 'boolean', default: false },
    /**
     * The connections of the search box's fixed-rate runs (autocomplete, search), opened first and kept, as a search
     * box keeps its one; 0: a new connection for each request due while the others are busy (the bench before issue
     * 39's fifth pass, which after a hiccup opened hundreds at once: see bench/support/openLoop.ts).
     */
    'search-box-connections': { type: 'string', default: '256' },
  },
});
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const searchBox =
  Number(args['search-box-connections']) > 0 ? { keptConnections: Number(args['search-box-connections']) } : {};
const settings: LoadSettings = { connections, duration, warmup };
const load = (scenario: Scenario, seconds: number) => loadWith(settings, scenario, seconds);
const drive = (scenario: Scenario, rate?: number, meter?: CpuMeter) =>
  driveWith(settings, scenario, rate, meter && (() => meter.begin()));

interface CostRow {
  target: string;
  requests: number;
  hop_ms: number | null;
  elasticsearch_ms: number | null;
  load_generator_ms: number;
  total_ms: number | null;
  ceiling_req_s: number | null;
}

/** CPU of the processes that serve a request, measured around the measured run only. */
class CpuMeter {
  private start: (number | undefined)[] = [];
  constructor(private readonly pids: { hop?: number; elasticsearch?: number }) {}
  begin() {
    this.start = [processCpuMs(this.pids.hop), processCpuMs(this.pids.elasticsearch), ownCpuMs()];
  }
  perRequest(target: string, requests: number): CostRow {
    const [hop0, es0, self0] = this.start;
    const delta = (now: number | undefined, then: number | undefined) =>
      now === undefined || then === undefined ? null : Math.round(((now - then) / requests) * 1000) / 1000;
    const hop = this.pids.hop === undefined ? 0 : delta(processCpuMs(this.pids.hop), hop0);
    const es = delta(processCpuMs(this.pids.elasticsearch), es0);
    const self = delta(ownCpuMs(), self0)!;
    const total = hop === null || es === null ? null : Math.round((hop + es + self) * 1000) / 1000;
    return {
      target,
      requests,
      hop_ms: this.pids.hop === undefined ? null : hop,
      elasticsearch_ms: es,
      load_generator_ms: self,
      total_ms: total,
      // What this machine's cores could serve if these three processes had them to themselves.
      ceiling_req_s: total ? Math.round((cpus().length * 1000) / total) : null,
    };
  }
}

/** autocannon as a separate process (its CLI), for load that must not share the measuring process's CPU. */
async function loopInOwnProcess(url: string, headers: Record<string, string>, connections: number, seconds: number) {
  const cli = join(REPO_ROOT, 'node_modules', 'autocannon', 'autocannon.js');
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const child = spawn(
    process.execPath,
    [cli, '-j', '-c', String(connections), '-d', String(seconds), ...headerArgs, url],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  await new Promise((resolve) => child.on('exit', resolve));
  return JSON.parse(out) as {
    requests: { total: number; average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
}

/** The bare hop (bench/support/passthroughServer.ts) the API's cost is compared with. */
async function startPassthrough(esUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/passthroughServer.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), ELASTICSEARCH_URL: esUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, '/');
  return { url, process: child };
}

/** `seedTiles`: whether the API cuts its tiles ahead (only the API whose tiles are measured: it takes a core for a while). */
function startApi(esUrl: string, prefix: string, nodeOptions?: string[], seedTiles = false) {
  return startApiProcess({
    elasticsearchUrl: esUrl,
    indexPrefix: prefix,
    apiKey: BENCH_API_KEY,
    nodeOptions,
    env: { TILE_SEEDING: String(seedTiles) },
  });
}

/** Stops the profiled API (the profile is written as it exits) and prints where its CPU went. */
async function printProfile(api: ChildProcess, dir: string) {
  const exited = new Promise((resolve) => api.once('exit', resolve));
  api.kill('SIGTERM');
  await exited;
  const { frames, owners } = selfTimes(newestProfile(dir));
  console.log(`\nAPI CPU profile (${dir}): top self time by frame\n${formatSelfTimes(frames, 25)}`);
  console.log(`\nby package or source folder\n${formatSelfTimes(owners, 15)}`);
}

/**
 * The API is warmed before the first counted scenario, whatever `--only` picks: every API scenario's requests in
 * turn (each request list once, as fast as it goes), so the first scenario measured meets the same JIT-compiled
 * handlers, grown heap and filled caches as the later ones. Without it the first scenario of a run was measured cold:
 * exact forward geocoding run first (`--only`) made 806-846 req/s against 1,430 after another scenario (issue 39),
 * and street lookup, first in the list, was under-measured in every table. The scenario's own warm-up (`--warmup`,
 * 3 s of the same requests) did not make up for it: the other entry points' code paths were still cold.
 */
async function warmApi(scenarios: readonly Scenario[], seconds: number) {
  if (seconds <= 0) return;
  const lists = new Set<Scenario['requests']>();
  const warming = scenarios.filter((s) => {
    if (s.target !== 'api' || lists.has(s.requests)) return false;
    lists.add(s.requests);
    return true;
  });
  console.error(`[bench] warming up the API: ${warming.length} request lists, ${seconds} s each`);
  for (const scenario of warming) await load(scenario, seconds);
}

function esBodies(bodies: { streetname: string; number: string }[], build: typeof exactLookupRequest) {
  // Every body was drawn from indexed addresses, so each parses.
  return bodies.map((b) => JSON.stringify(build(parseStreetQuery(b))));
}

function printTable(rows: Row[]) {
  const header = ['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx', 'rate', 'bytes/resp'];
  const lines = rows.map((r) => [
    r.scenario,
    r.target,
    String(r.requests_per_s),
    String(r.p50_ms),
    String(r.p99_ms),
    String(r.errors),
    String(r.non2xx),
    r.rate_limit ? String(r.rate_limit) : 'max',
    r.bytes_per_response === undefined ? '' : String(r.bytes_per_response),
  ]);
  console.log(formatTable(header, lines));
}

async function main() {
  const started = Date.now();
  const es = await startElasticsearch({ heap: '1g', log: (m) => console.error(`[es] ${m}`) });
  console.error(`[bench] Elasticsearch ${es.version} (${es.kind}) at ${es.url}`);
  const client = createElasticsearchClient({ url: es.url, requestTimeoutMs: 600_000 });
  const children: ChildProcess[] = [];
  try {
    const manifests = scalingManifests(args.small);
    const bulk = manifests[manifests.length - 1]!;
    const main = args.prefix ? { ...bulk, prefix: args.prefix } : bulk;
    if (args.prefix && !(await aliasesExist(client, args.prefix))) {
      throw new Error(`--prefix ${args.prefix}: no indexes under it (index them first; the bench only reads them)`);
    }
    await ensureIndexed(client, main, (m) => console.error(`[bench] ${m}`));
    const esPid = await elasticsearchPid(client);
    await waitUntilQuiet(esPid, (m) => console.error(`[bench] ${m}`));
    const random = seededRandom(Number(args.seed));
    const addresses = await sampleAddresses(client, main.prefix, Number(args.queries), Number(args.seed));
    const provinces = await sampleAreas(client, main.prefix, 'province', 50, Number(args.seed));
    const cities = await sampleAreas(client, main.prefix, 'city', 200, Number(args.seed));
    const municipalities = await sampleAreas(client, main.prefix, 'municipality', 400, Number(args.seed));

    const profileDir = args['cpu-prof'] && resolve(args['cpu-prof']);
    const only = args.only ? new RegExp(args.only) : undefined;
    const tilesMeasured = !only || only.test('tiles');
    const seedTiles = tilesMeasured && !args['no-tile-seeding'];
    const api = await startApi(
      es.url,
      main.prefix,
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : undefined,
      seedTiles,
    );
    children.push(api.process);
    // The bulk data has no suburbs or buildings: the map scenarios on buildings read the Delft sample.
    const sample = manifests[0]!;
    await ensureIndexed(client, sample, (m) => console.error(`[bench] ${m}`));
    const sampleApi = await startApi(es.url, sample.prefix);
    children.push(sampleApi.process);
    const suburbs = (
      await client.search<AreaDoc>({
        index: aliasName(sample.prefix, 'areas'),
        size: 50,
        query: { term: { level: 'suburb' } },
        _source: ['id', 'bbox'],
      })
    ).hits.hits.map((h) => h._source as AreaDoc);
    const hop = await startPassthrough(es.url);
    children.push(hop.process);
    const apiHeaders = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
    const esHeaders = { 'content-type': 'application/json' };
    const exactBodies = streetBodies(addresses, false, random);
    const typoBodies = streetBodies(addresses, true, random);
    const post = (path: string, bodies: unknown[]) =>
      bodies.map((b) => ({ method: 'POST' as const, path, body: typeof b === 'string' ? b : JSON.stringify(b) }));
    const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
    const esSearch = `/${aliasName(main.prefix, 'addresses')}/_search`;

    const scenarios: Scenario[] = [
      {
        name: 'lookup/street exact',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: post('/lookup/street', exactBodies),
      },
      {
        name: 'lookup/street exact',
        target: 'elasticsearch',
        url: es.url,
        headers: esHeaders,
        requests: post(esSearch, esBodies(exactBodies, exactLookupRequest)),
      },
      {
        name: 'geocode/forward exact',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: post('/geocode/forward', exactBodies),
      },
      {
        name: 'geocode/forward exact',
        target: 'elasticsearch',
        url: es.url,
        headers: esHeaders,
        requests: post(esSearch, esBodies(exactBodies, exactForwardRequest)),
      },
      {
        name: 'geocode/forward exact',
        target: 'bare hop',
        url: hop.url,
        headers: esHeaders,
        requests: post(esSearch, esBodies(exactBodies, exactForwardRequest)),
      },
      {
        name: 'geocode/forward 1 typo',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: post('/geocode/forward', typoBodies),
      },
      {
        name: 'addresses/{id}',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: get(addresses.map((a) => `/addresses/${a.id}`)),
      },
      {
        name: 'provinces/{id}/municipalities?name=',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: get(
          municipalities.map((m, i) => {
            const province = provinces[i % provinces.length]!;
            return `/provinces/${province.id}/municipalities?name=${encodeURIComponent(m.name.slice(0, 3))}`;
          }),
        ),
      },
      {
        name: 'cities/{id}/suburbs/geojson',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: get(cities.map((c) => `/cities/${c.id}/suburbs/geojson`)),
      },
      // Reverse geocoding: points a few metres (seeded) from drawn addresses; areas come from the in-process index.
      {
        name: 'reverse',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        requests: get(reversePaths(addresses, Number(args.seed))),
      },
      // Type-ahead: every keystroke of a drawn street name (one to all characters), then the street and number.
      ...(() => {
        const paths = keystrokePaths(addresses);
        const scenario = {
          target: 'api' as const,
          url: api.url,
          headers: apiHeaders,
          requests: get(paths),
          ...searchBox,
        };
        return [
          { ...scenario, name: 'autocomplete keystrokes' },
          { ...scenario, name: 'autocomplete keystrokes at 500/s', rate: 500 },
        ];
      })(),
      // Map clients: boundaries as a browser asks for them (compressed), whole, simplified, as points, in a viewport.
      ...[
        ['countries/geojson', '/countries/geojson'],
        ['countries/geojson simplify=1000', '/countries/geojson?simplify=1000'],
        ['countries/geojson geometry=centroid', '/countries/geojson?geometry=centroid'],
      ].map(([name, path]) => ({
        name: name!,
        target: 'api' as const,
        url: api.url,
        headers: { ...apiHeaders, 'accept-encoding': 'br, gzip' },
        wireBytes: true,
        requests: get([path!]),
      })),
      {
        name: 'suburbs/{id}/buildings/geojson bbox (Delft sample)',
        target: 'api',
        url: sampleApi.url,
        headers: { ...apiHeaders, 'accept-encoding': 'br, gzip' },
        wireBytes: true,
        // The south-west quarter of each suburb's envelope: a map zoomed in on part of a neighbourhood.
        requests: get(
          suburbs.map((s) => {
            const { min_lon, min_lat, max_lon, max_lat } = s.bbox;
            const box = [min_lon, min_lat, (min_lon + max_lon) / 2, (min_lat + max_lat) / 2].map((v) => v.toFixed(6));
            return `/suburbs/${s.id}/buildings/geojson?bbox=${box.join(',')}`;
          }),
        ),
      },
      // Free text: drawn addresses as people write them, "street number, postcode city".
      {
        name: 'search free text',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        ...searchBox,
        requests: get(freeTextPaths(addresses)),
      },
      // The same addresses with a house-number tail: "… 3 bus B003, …", "… 56 - 206, …", "… 12 - 14, …".
      {
        name: 'search free text with a tail',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        ...searchBox,
        requests: get(freeTextTailPaths(addresses)),
      },
      // The search box on places: "street city", "city", "postcode" (no house number), through the places index.
      {
        name: 'search place',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        ...searchBox,
        requests: get(placePaths(addresses)),
      },
      // Batch: 1,000 exact forward bodies per request (addresses/s = req/s x 1,000), from 2 clients.
      {
        name: 'geocode/batch 1000 exact',
        target: 'api',
        url: api.url,
        headers: apiHeaders,
        connections: 2,
        requests: post(
          '/geocode/batch',
          Array.from({ length: Math.max(1, Math.floor(exactBodies.length / BATCH_ITEMS)) }, (_, i) => ({
            items: exactBodies.slice(i * BATCH_ITEMS, (i + 1) * BATCH_ITEMS),
          })),
        ),
      },
    ];

    // Elasticsearch compiles its search paths on first use; the first scenario must not pay for that.
    console.error('[bench] warming up Elasticsearch');
    for (const scenario of scenarios.filter((s) => s.target === 'elasticsearch')) await load(scenario, 5);

    const rows: Row[] = [];
    // The tiles are cut ahead before anything else is measured (forward geocoding measured during it and after it):
    // the uncached-tile scenarios then ask tiles the store holds, and no scenario shares the cores with the worker.
    let tileSeeding: Awaited<ReturnType<typeof seedTilesFirst>>['seeding'] | undefined;
    if (seedTiles) {
      const seeded = await seedTilesFirst({
        settings,
        apiUrl: api.url,
        headers: apiHeaders,
        apiPid: api.process.pid,
        forward: scenarios.find((s) => s.name === 'geocode/forward exact' && s.target === 'api')!,
        log: (m) => console.error(`[bench] ${m}`),
      });
      rows.push(...seeded.rows);
      tileSeeding = seeded.seeding;
    }
    await warmApi(scenarios, Number(args['api-warmup']));

    for (const scenario of scenarios) {
      if (only && !only.test(scenario.name)) continue;
      console.error(`[bench] ${scenario.target} ${scenario.name}`);
      rows.push(await drive(scenario, scenario.rate));
    }
    // Map clients must not starve geocoding: forward geocoding from 6 clients alone, then while 4 more clients
    // loop /countries/geojson (the heaviest boundary answer).
    if (!only || only.test('mixed')) {
      const forward = scenarios.find((s) => s.name === 'geocode/forward exact' && s.target === 'api')!;
      const countries = scenarios.find((s) => s.name === 'countries/geojson')!;
      const alone = { ...forward, name: 'mixed: forward exact, 6 clients alone', connections: 6 };
      console.error(`[bench] api ${alone.name}`);
      rows.push(await drive(alone));
      const together = { ...alone, name: 'mixed: forward exact, 6 clients + 4 looping countries/geojson' };
      console.error(`[bench] api ${together.name}`);
      // The loopers run in their own process: receiving 600 KB answers as fast as they come would otherwise
      // starve this process's event loop, and so the forward load generator, not the API.
      const [row, loopers] = await Promise.all([
        drive(together),
        loopInOwnProcess(`${countries.url}${countries.requests[0]!.path}`, countries.headers, 4, warmup + duration),
      ]);
      rows.push(row, {
        scenario: 'mixed: the 4 clients looping countries/geojson',
        target: 'api',
        requests: loopers.requests.total,
        requests_per_s: Math.round(loopers.requests.average),
        p50_ms: loopers.latency.p50,
        p99_ms: loopers.latency.p99,
        errors: loopers.errors + loopers.timeouts,
        non2xx: loopers.non2xx,
      });
    }
    // The boundary tiles against cached GeoJSON, uncached at half their cached rate, and beside geocoding (issue 38).
    let tileRatios: Awaited<ReturnType<typeof runTileScenarios>>['ratios'] | undefined;
    if (!only || only.test('tiles')) {
      const tiles = await runTileScenarios({
        settings,
        apiUrl: api.url,
        headers: apiHeaders,
        provinceIds: provinces.map((p) => p.id),
        forward: scenarios.find((s) => s.name === 'geocode/forward exact' && s.target === 'api')!,
        random,
        log: (m) => console.error(`[bench] ${m}`),
      });
      rows.push(...tiles.rows);
      tileRatios = tiles.ratios;
    }
    // Tail latency at half of the measured maximum rate, the operating point a capacity plan would pick.
    for (const name of ['lookup/street exact', 'geocode/forward exact', 'search place', 'autocomplete keystrokes']) {
      const max = rows.find((r) => r.scenario === name && r.target === 'api');
      if (!max) continue;
      const scenario = scenarios.find((s) => s.name === name && s.target === 'api')!;
      console.error(`[bench] api ${name} at half rate`);
      rows.push(await drive(scenario, Math.max(1, Math.round(max.requests_per_s / 2))));
    }

    const ratio = (name: string, target: Scenario['target'] = 'api') => {
      const hopRow = rows.find((r) => r.scenario === name && r.target === target && !r.rate_limit);
      const esRow = rows.find((r) => r.scenario === name && r.target === 'elasticsearch');
      if (!hopRow || !esRow) return null;
      return Math.round((hopRow.requests_per_s / esRow.requests_per_s) * 100) / 100;
    };
    const apiRatio = (name: string, reference: string) => {
      const row = rows.find((r) => r.scenario === name && r.target === 'api' && !r.rate_limit);
      const ref = rows.find((r) => r.scenario === reference && r.target === 'api' && !r.rate_limit);
      return row && ref ? Math.round((row.requests_per_s / ref.requests_per_s) * 100) / 100 : null;
    };
    const ratios = {
      'lookup/street exact': ratio('lookup/street exact'),
      'geocode/forward exact': ratio('geocode/forward exact'),
      'geocode/forward exact, bare hop': ratio('geocode/forward exact', 'bare hop'),
      // The entry points against exact forward geocoding, all through the API (issue targets as ratios).
      'reverse / forward exact': apiRatio('reverse', 'geocode/forward exact'),
      'search free text / forward exact': apiRatio('search free text', 'geocode/forward exact'),
      'search free text with a tail / search free text': apiRatio('search free text with a tail', 'search free text'),
      'search place / forward exact': apiRatio('search place', 'geocode/forward exact'),
      'mixed: forward with 4 boundary loopers / alone': (() => {
        const alone = rows.find((r) => r.scenario === 'mixed: forward exact, 6 clients alone');
        const together = rows.find(
          (r) => r.scenario === 'mixed: forward exact, 6 clients + 4 looping countries/geojson',
        );
        return alone && together ? Math.round((together.requests_per_s / alone.requests_per_s) * 100) / 100 : null;
      })(),
      'batch addresses per second': (() => {
        const row = rows.find((r) => r.scenario === 'geocode/batch 1000 exact');
        return row ? Math.round((row.requests * BATCH_ITEMS) / duration) : null;
      })(),
    };

    // Where the time goes: CPU per request of each process at one fixed rate that none of them saturates.
    const costs: CostRow[] = [];
    if (!only || only.test('geocode/forward exact')) {
      const costRate = Number(args['cost-rate']);
      for (const target of ['elasticsearch', 'bare hop', 'api'] as const) {
        const scenario = scenarios.find((s) => s.name === 'geocode/forward exact' && s.target === target)!;
        const pid = target === 'api' ? api.process.pid : target === 'bare hop' ? hop.process.pid : undefined;
        const meter = new CpuMeter({ hop: pid, elasticsearch: esPid });
        console.error(`[bench] cpu per request: ${target} at ${costRate} req/s`);
        const row = await drive(scenario, costRate, meter);
        costs.push(meter.perRequest(target, row.requests));
      }
    }

    // p50 of exact forward geocoding against growing indexes.
    const scaling: { dataset: string; addresses: number; p50_ms: number; p99_ms: number; requests_per_s: number }[] =
      [];
    if (!args['no-scaling']) {
      for (const m of manifests) {
        await ensureIndexed(client, m, (msg) => console.error(`[bench] ${msg}`));
        const count = (await client.count({ index: aliasName(m.prefix, 'addresses') })).count;
        const sample = await sampleAddresses(client, m.prefix, Number(args.queries), Number(args.seed));
        const scaledApi = await startApi(es.url, m.prefix);
        children.push(scaledApi.process);
        console.error(`[bench] scaling: ${m.name}`);
        const row = await drive({
          name: `forward exact @ ${m.name}`,
          target: 'api',
          url: scaledApi.url,
          headers: apiHeaders,
          requests: post('/geocode/forward', streetBodies(sample, false, random)),
        });
        scaledApi.process.kill('SIGTERM');
        scaling.push({
          dataset: m.name,
          addresses: count,
          p50_ms: row.p50_ms,
          p99_ms: row.p99_ms,
          requests_per_s: row.requests_per_s,
        });
      }
    }

    console.log(
      `\nAPI vs raw Elasticsearch, ${connections} connections, ${duration}s per scenario after ${warmup}s warm-up`,
    );
    console.log(`Elasticsearch ${es.version}, dataset ${main.name}\n`);
    printTable(rows);
    console.log(
      `\nthroughput ratio API/raw: lookup ${ratios['lookup/street exact']}, forward ${ratios['geocode/forward exact']}` +
        ` (a bare Node hop with no API at all: ${ratios['geocode/forward exact, bare hop']})` +
        `\nentry points vs exact forward: reverse ${ratios['reverse / forward exact']}, free text ${ratios['search free text / forward exact']};` +
        ` batch ${ratios['batch addresses per second']} addresses/s` +
        `\nforward geocoding with 4 clients looping countries/geojson, vs alone: ${ratios['mixed: forward with 4 boundary loopers / alone']}`,
    );
    if (tileRatios) {
      console.log(
        `\ntiles: cached tile / cached GeoJSON req/s per round ${tileRatios['cached tile / cached GeoJSON, per round'].join(', ')};` +
          ` uncached tile p99 ${tileRatios['uncached tile p99 ms at half the cached rate']} ms at half the cached rate;` +
          ` forward beside 4 tile panners / alone ${JSON.stringify(tileRatios['forward beside 4 tile panners / alone'])}` +
          `\ntile seeding: ${JSON.stringify(tileSeeding)}`,
      );
    }
    if (costs.length > 0) {
      console.log(
        `\nCPU ms per request, /geocode/forward exact at ${args['cost-rate']} req/s (${cpus().length} cores)`,
      );
      for (const c of costs) {
        const ms = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
        console.log(
          `  ${c.target.padEnd(14)} hop ${ms(c.hop_ms).padStart(6)}  elasticsearch ${ms(c.elasticsearch_ms).padStart(6)}` +
            `  load generator ${ms(c.load_generator_ms).padStart(6)}  total ${ms(c.total_ms).padStart(6)}` +
            `  => ceiling ${c.ceiling_req_s ?? 'n/a'} req/s`,
        );
      }
    }
    if (scaling.length > 0) {
      console.log('\np50 of exact /geocode/forward by index size');
      for (const s of scaling) {
        console.log(
          `  ${s.dataset.padEnd(16)} ${String(s.addresses).padStart(9)} addresses  p50 ${s.p50_ms} ms  p99 ${s.p99_ms} ms  ${s.requests_per_s} req/s`,
        );
      }
    }
    const outDir = RESULTS_DIR;
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ elasticsearch: es.version, dataset: main.name, connections, duration, warmup, rows, ratios, tileRatios, tileSeeding, costs, scaling }, null, 2)}\n`,
    );
    console.log(`\nwritten to ${file} (total ${Math.round((Date.now() - started) / 1000)} s)`);
    if (profileDir) await printProfile(api.process, profileDir);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await client.close();
    await es.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
