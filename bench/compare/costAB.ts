/**
 * `npm run bench:cost -- [--api LABEL=DIR[:dist][:direct][:--node-option]]... [--scenario forward] [--rate 300]`
 *
 * CPU per request of one or more API builds and of the bare hop (bench/support/passthroughServer.ts), measured
 * side by side on a shared machine: every target is up at once and the load alternates between them in short
 * slices at one fixed rate (so the box's noise falls on each alike), the targets' order rotating each round; the
 * CPU of each target's process (`/proc`) and its answered requests are summed over its slices. Between the targets
 * and Elasticsearch sits a relay that answers every search it has seen from memory (bench/support/memoRelay.ts),
 * so Elasticsearch's CPU and latency stay out of the numbers (`--no-relay` to go straight to Elasticsearch).
 *
 * `--api now=.` (the default) is this checkout under tsx; `--api base=/tmp/base` another checkout (e.g.
 * `git archive <commit> | tar -x -C /tmp/base` with node_modules linked); `:dist` runs that checkout's compiled
 * `dist/src/main.js` with plain node, as production does (build it first); `:direct` sends that target's searches
 * straight to Elasticsearch, past the relay (`--api relay=. --api direct=.:direct`: how much of a latency is
 * Elasticsearch's); a mode starting with `--` is a Node.js option for that target (`.:--max-semi-space-size=32`). Needs ELASTICSEARCH_URL with the data of `--prefix` (default `bench-bulk-`) loaded; it only
 * reads. A target whose searches reach Elasticsearch itself (`--no-relay`, `:direct`) also gets Elasticsearch's CPU
 * in its slices (`/proc` of the node's pid; on a shared node that includes its other clients', spread over the
 * interleaved targets alike). `--scenario tails`: every `--api` build twice, on the free text without a house-number
 * tail (`plain`) and on the same addresses with one (`tail`): what a tail costs, per build, side by side (with
 * `--no-relay --idle`: the API's and Elasticsearch's CPU). `--scenario autocomplete-focus`: the keystrokes with a map focus. `:prefix=P`: that target reads the indexes
 * under P (the same data built another way, e.g. a changed mapping; the queries are drawn from `--prefix`). `--lean` (forward only) adds this checkout's forward handler on bare `node:http`
 * (bench/support/leanForward.ts): what Koa and the middleware cost, measured; and the same with raw undici in place
 * of the Elasticsearch client (`lean undici`, bench/support/undiciSearcher.ts): what the client costs, and the
 * floor of the handler's own work with neither. `--scenario dialects`: the same search texts (free text and places,
 * alternating) as native `/search` and as each compatibility dialect's search (Nominatim, Photon, Pelias), every side
 * on its own process of the first `--api` build: what the translation costs per request (`vs native`). `--idle`
 * (with Elasticsearch in the path, on a node others use too): every round also has a slice that sends nothing, and
 * the node's CPU in those slices is taken off each target's (as many slices each): what the others cost it meanwhile.
 * `--accept-encoding 'gzip, deflate, br, zstd'`: the API targets' requests carry a browser's header, so answers over
 * 1 KiB are compressed as a browser gets them (without it, none is).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { freePort } from '../../dev/elasticsearch/localNode.js';
import { exactForwardRequest, exactLookupRequest } from '../../src/features/address/addressBodies.js';
import { parseStreetQuery } from '../../src/features/address/streetRequest.js';
import { parseApiSpec } from '../support/apiSpec.js';
import { startApiProcess, waitUntilUp } from '../support/apiProcess.js';
import {
  freeTextPaths,
  freeTextTailPaths,
  keystrokePaths,
  placePaths,
  reversePaths,
  sampleAddresses,
  streetBodies,
} from '../support/benchQueries.js';
import { atRate as atRateOf, formatTable, type Scenario } from '../support/loadDriver.js';
import { formatSelfTimes, newestProfile, selfTimes } from '../support/cpuProfile.js';
import { layerShares } from '../support/profileLayers.js';
import { elasticsearchPid, processCpuMs } from '../support/processCpu.js';
import { seededRandom } from '../support/random.js';
import { BENCH_API_KEY, BENCH_SEED, BULK_PREFIX, REPO_ROOT, elasticsearchUrlFromEnv } from '../support/defaults.js';
import { interleave } from '../support/interleave.js';
import { setTimeout as sleep } from 'node:timers/promises';

const { values: args } = parseArgs({
  options: {
    api: { type: 'string', multiple: true },
    scenario: { type: 'string', default: 'forward' },
    rate: { type: 'string', default: '300' },
    slices: { type: 'string', default: '12' },
    slice: { type: 'string', default: '3' },
    queries: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    prefix: { type: 'string', default: BULK_PREFIX },
    'no-relay': { type: 'boolean', default: false },
    /** Forward only: also this checkout's handler on bare node:http (bench/support/leanForward.ts). */
    lean: { type: 'boolean', default: false },
    /**
     * With Elasticsearch in the path: an `idle` slice in every round that sends nothing, so what the node spends on
     * its other clients meanwhile (a shared node) is measured and taken off each target's Elasticsearch CPU.
     */
    idle: { type: 'boolean', default: false },
    /** The API targets' requests carry this Accept-Encoding (a browser's: `gzip, deflate, br, zstd`); none by default. */
    'accept-encoding': { type: 'string' },
    /** Profile every API target (node --cpu-prof) into DIR/<label> and print its top self-time frames. */
    'cpu-prof': { type: 'string' },
  },
});
const rate = Number(args.rate);
const sliceSeconds = Number(args.slice);
/** The scenario at the run's rate, open loop (evenly spaced requests: what a fixed load looks like to the API). */
const atRate = (scenario: Scenario, seconds: number) => atRateOf(scenario, rate, seconds);

interface Target {
  label: string;
  pid: number;
  scenario: Scenario;
  cpuMs: number;
  requests: number;
  failed: number;
  p99s: number[];
  /** Whether this target's searches reach Elasticsearch itself (`--no-relay`, `:direct`): its CPU is counted too. */
  direct: boolean;
  esCpuMs: number;
}

/** A child script of bench/support (the relay, the bare hop) on a free port, pointed at `upstream`. */
async function startChild(
  script: string,
  upstream: string,
  env: NodeJS.ProcessEnv = {},
  nodeOptions: string[] = [],
): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), ELASTICSEARCH_URL: upstream },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, '/');
  return { url, process: child };
}

const load1 = () => loadavg()[0]!.toFixed(1);

async function main() {
  const esUrl = elasticsearchUrlFromEnv();
  const prefix = args.prefix;
  const client = createElasticsearchClient({ url: esUrl, requestTimeoutMs: 60_000 });
  const children: ChildProcess[] = [];
  try {
    const addresses = await sampleAddresses(client, prefix, Number(args.queries), Number(args.seed));
    const relay = args['no-relay'] ? undefined : await startChild('bench/support/memoRelay.ts', esUrl);
    if (relay) children.push(relay.process);
    const upstream = relay?.url ?? esUrl;

    const apiHeaders: Record<string, string> = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
    if (args['accept-encoding']) apiHeaders['accept-encoding'] = args['accept-encoding'];
    const esSearch = `/${aliasName(prefix, 'addresses')}/_search`;
    const bodies = streetBodies(addresses, false, seededRandom(Number(args.seed)));
    const post = (path: string, list: unknown[]) =>
      list.map((b) => ({ method: 'POST' as const, path, body: typeof b === 'string' ? b : JSON.stringify(b) }));
    const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
    const esBodies = (build: typeof exactForwardRequest) =>
      bodies.map((b) => JSON.stringify(build(parseStreetQuery(b))));
    const scenarios: Record<string, { api: Scenario['requests']; hop?: Scenario['requests'] }> = {
      forward: { api: post('/geocode/forward', bodies), hop: post(esSearch, esBodies(exactForwardRequest)) },
      lookup: { api: post('/lookup/street', bodies), hop: post(esSearch, esBodies(exactLookupRequest)) },
      autocomplete: { api: get(keystrokePaths(addresses)) },
      // The same keystrokes from a map-centred search box (the drawn address as the focus).
      'autocomplete-focus': { api: get(keystrokePaths(addresses, { focus: true })) },
      reverse: { api: get(reversePaths(addresses, Number(args.seed))) },
      // The search box: free text with a number, and place names (both read the places index).
      search: { api: get(freeTextPaths(addresses)) },
      // The same addresses with a house-number tail ("… 3 bus B003, …", "… 56 - 206, …", "… 12 - 14, …").
      tail: { api: get(freeTextTailPaths(addresses)) },
      place: { api: get(placePaths(addresses)) },
      // 100 exact items per request (CPU per request / 100 = per address; `--rate` counts requests).
      batch: {
        api: post(
          '/geocode/batch',
          Array.from({ length: Math.max(1, Math.floor(bodies.length / 100)) }, (_, i) => ({
            items: bodies.slice(i * 100, (i + 1) * 100),
          })),
        ),
      },
    };
    const perSide = args.scenario === 'dialects' || args.scenario === 'tails';
    const chosen = perSide ? { api: [] } : scenarios[args.scenario];
    if (!chosen) throw new Error(`--scenario: one of ${Object.keys(scenarios).join(', ')}, dialects, tails`);

    const targets: Target[] = [];
    const scenario = (url: string, headers: Record<string, string>, requests: Scenario['requests']): Scenario => ({
      name: args.scenario,
      target: 'api',
      url,
      headers,
      requests,
    });
    const profiled: { label: string; dir: string; process: ChildProcess }[] = [];
    /** With --cpu-prof: the folder of `label`'s profile and the Node.js options that write it there. */
    const profiling = (label: string) => {
      const dir = args['cpu-prof'] && resolve(args['cpu-prof'], label.replaceAll(' ', '-'));
      return { dir, options: dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'] : [] };
    };
    /** A started target: measured, profiled when asked, stopped at the end. */
    const addTarget = (
      label: string,
      child: ChildProcess,
      dir: string | undefined,
      load: Scenario,
      direct = !relay,
    ) => {
      children.push(child);
      if (dir) profiled.push({ label, dir, process: child });
      targets.push(newTarget(label, child.pid!, load, direct));
    };
    // Elasticsearch's CPU in a direct target's slices (a shared node's CPU includes its other clients': the
    // interleaved slices spread that over the targets alike; compare targets of one run only).
    const esPid = await elasticsearchPid(client);
    if (chosen.hop) {
      // Profiled too: the layer tables of the API and the hop side by side say which costs the hop has as well.
      const { dir, options } = profiling('bare hop');
      const hop = await startChild('bench/support/passthroughServer.ts', upstream, {}, options);
      addTarget('bare hop', hop.process, dir, scenario(hop.url, { 'content-type': 'application/json' }, chosen.hop));
    }
    if (args.lean) {
      if (args.scenario !== 'forward') throw new Error('--lean: forward only');
      // The handler on bare node:http with the API's client, and with raw undici in its place.
      for (const [label, search] of [
        ['lean', 'client'],
        ['lean undici', 'undici'],
      ] as const) {
        const { dir, options } = profiling(label);
        const env = { INDEX_PREFIX: prefix, LEAN_SEARCH: search };
        const lean = await startChild('bench/support/leanForward.ts', upstream, env, options);
        addTarget(label, lean.process, dir, scenario(lean.url, apiHeaders, chosen.api));
      }
    }
    // One API process per side for `dialects` (the first --api build), else one per build with the scenario's list.
    // `tails`: two per build, the free text without a tail and the same addresses with one, side by side.
    const sides: { spec: string; label?: string; requests: Scenario['requests'] }[] =
      args.scenario === 'dialects'
        ? Object.entries(dialectRequests(addresses)).map(([label, requests]) => ({
            spec: args.api?.[0] ?? 'now=.',
            label,
            requests,
          }))
        : args.scenario === 'tails'
          ? (args.api ?? ['now=.']).flatMap((spec) => [
              { spec, label: `${parseApiSpec(spec).label} plain`, requests: get(freeTextPaths(addresses)) },
              { spec, label: `${parseApiSpec(spec).label} tail`, requests: get(freeTextTailPaths(addresses)) },
            ])
          : (args.api ?? ['now=.']).map((spec) => ({ spec, requests: chosen.api }));
    for (const side of sides) {
      const { dir, modes } = parseApiSpec(side.spec);
      const label = side.label ?? parseApiSpec(side.spec).label;
      const nodeFlags = modes.filter((mode) => mode.startsWith('--'));
      const profile = profiling(label);
      // `prefix=P`: this target reads the indexes under P (another build of the same data, e.g. a new mapping).
      const ownPrefix = modes.find((mode) => mode.startsWith('prefix='))?.slice('prefix='.length);
      const api = await startApiProcess({
        elasticsearchUrl: modes.includes('direct') ? esUrl : upstream,
        indexPrefix: ownPrefix ?? prefix,
        apiKey: BENCH_API_KEY,
        root: resolve(dir),
        compiled: modes.includes('dist'),
        nodeOptions: [...nodeFlags, ...profile.options],
      });
      const direct = !relay || modes.includes('direct');
      addTarget(label, api.process, profile.dir, scenario(api.url, apiHeaders, side.requests), direct);
    }

    // Warm-up: each target's JIT, and the relay's memory of every search the scenario makes.
    const warmSeconds = Math.ceil(Math.max(...targets.map((t) => t.scenario.requests.length)) / rate) + 3;
    const idle =
      args.idle && esPid !== undefined ? newTarget('idle', process.pid, targets[0]!.scenario, true) : undefined;
    for (const target of targets) {
      console.error(`[cost] warming up ${target.label} (${warmSeconds} s at ${rate}/s)`);
      await atRate(target.scenario, warmSeconds);
    }
    const loadBefore = load1();
    const slices = Number(args.slices);
    const afterRound = (round: number) => console.error(`[cost] round ${round + 1}/${slices}, load average ${load1()}`);
    await interleave(
      idle ? [...targets, idle] : targets,
      { rounds: slices, order: 'rotate', afterRound },
      async (target) => {
        if (target === idle) {
          const esBefore = processCpuMs(esPid)!;
          await sleep(sliceSeconds * 1000);
          idle.esCpuMs += processCpuMs(esPid)! - esBefore;
          return;
        }
        const before = processCpuMs(target.pid)!;
        const esBefore = target.direct ? processCpuMs(esPid) : undefined;
        const result = await atRate(target.scenario, sliceSeconds);
        target.cpuMs += processCpuMs(target.pid)! - before;
        if (esBefore !== undefined) target.esCpuMs += processCpuMs(esPid)! - esBefore;
        target.requests += result.sent;
        target.failed += result.sent - result.ok;
        target.p99s.push(result.p99_ms);
      },
    );
    const loadAfter = load1();

    const perRequest = (t: Target) => t.cpuMs / Math.max(1, t.requests);
    const reference = targets.find((t) => t.label === 'bare hop');
    const firstApi = targets.find((t) => t !== reference);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const header = ['target', 'requests', 'failed', 'cpu ms', 'cpu ms/req', 'vs bare hop', `vs ${firstApi?.label}`];
    header.push('median slice p99 ms');
    const withEs = esPid !== undefined && targets.some((t) => t.direct);
    if (withEs)
      header.push(idle ? 'es ms/req less idle' : 'es ms/req', 'api+es ms/req', `api+es vs ${firstApi?.label}`);
    // What the node spent on others in an idle slice, taken off each target's slices (as many of them as idle ones).
    const idleEsMs = idle ? idle.esCpuMs : 0;
    if (idle)
      console.log(`\nElasticsearch CPU in the idle slices: ${(idleEsMs / (slices * sliceSeconds)).toFixed(1)} ms/s`);
    const esMs = (t: Target) => Math.max(0, t.esCpuMs - idleEsMs);
    const both = (t: Target) => (t.cpuMs + esMs(t)) / Math.max(1, t.requests);
    const lines = targets.map((t) => [
      t.label,
      String(t.requests),
      String(t.failed),
      String(Math.round(t.cpuMs)),
      perRequest(t).toFixed(3),
      reference ? (perRequest(t) / perRequest(reference)).toFixed(2) : '',
      firstApi ? (perRequest(t) / perRequest(firstApi)).toFixed(2) : '',
      String(median(t.p99s)),
      ...(withEs && t.direct
        ? [
            (esMs(t) / Math.max(1, t.requests)).toFixed(3),
            both(t).toFixed(3),
            firstApi?.direct ? (both(t) / both(firstApi)).toFixed(2) : '',
          ]
        : withEs
          ? ['', '', '']
          : []),
    ]);
    console.log(
      `\nCPU per request, ${args.scenario}, ${slices} x ${sliceSeconds} s slices per target at ${rate}/s, ` +
        `open loop, ${relay ? 'memoising relay' : 'straight to Elasticsearch'}; ` +
        `load average ${loadBefore} -> ${loadAfter}\n`,
    );
    console.log(formatTable(header, lines));
    for (const { label, dir, process: api } of profiled) {
      // The profile is written as the process exits.
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await exited;
      const profile = newestProfile(dir);
      const { frames, owners } = selfTimes(profile);
      console.log(`\n${label}: CPU profile (${dir}), top self time by frame\n${formatSelfTimes(frames, 30)}`);
      console.log(`\nby package or source folder\n${formatSelfTimes(owners, 20)}`);
      const target = targets.find((t) => t.label === label);
      const perRequest = target && target.requests > 0 ? target.cpuMs / target.requests : undefined;
      console.log(`\nby layer (start-up left out)\n${formatSelfTimes(layerShares(profile), 20, perRequest)}`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await client.close();
  }
}

/**
 * The same texts (an address as people write it, then a street, a city or a postcode, alternating) as native /search
 * asks them and as each dialect's search does, with its clients' usual parameters.
 */
function dialectRequests(addresses: Parameters<typeof freeTextPaths>[0]): Record<string, Scenario['requests']> {
  const texts = freeTextPaths(addresses)
    .flatMap((path, i) => [path, placePaths(addresses)[i]!])
    .map((path) => new URLSearchParams(path.slice(path.indexOf('?'))).get('q') ?? '');
  const paths = (path: (q: string) => string) => texts.map((q) => ({ method: 'GET' as const, path: path(q) }));
  const q = (value: string) => encodeURIComponent(value);
  return {
    native: paths((text) => `/search?q=${q(text)}`),
    nominatim: paths((text) => `/nominatim/search?q=${q(text)}&format=jsonv2&addressdetails=1`),
    photon: paths((text) => `/photon/api?q=${q(text)}`),
    pelias: paths((text) => `/pelias/v1/search?text=${q(text)}`),
  };
}

function newTarget(label: string, pid: number, scenario: Scenario, direct: boolean): Target {
  return { label, pid, scenario, cpuMs: 0, requests: 0, failed: 0, p99s: [], direct, esCpuMs: 0 };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
