/**
 * `npm run bench:tail [-- --scenario place|keystrokes] [--rate R] [--seconds S] [--node-opt=--flag ...]`: where a
 * fixed-rate p99 comes from. Drives the API (a production process on the `bench-bulk-` indexes of
 * ELASTICSEARCH_URL; it only reads) at an open-loop rate, records every request's latency with the moment it was
 * due, and prints the quantiles, which 100 ms windows hold the slowest 1 % (clustered: stalls; spread: queueing),
 * the generator's own event-loop delay, and the API's garbage collections (count, average and longest pause by
 * kind). Node.js options for the API (`--node-opt=--min-semi-space-size=64`) compare GC settings.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../src/elasticsearch/client.js';
import { startApiProcess } from './support/apiProcess.js';
import { keystrokePaths, placePaths, sampleAddresses } from './support/benchQueries.js';
import { type OpenLoopSample, openLoop, quantile } from './support/openLoop.js';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'place' },
    rate: { type: 'string', default: '970' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    prefix: { type: 'string', default: 'bench-bulk-' },
    'node-opt': { type: 'string', multiple: true, default: [] },
  },
});
const esUrl = process.env.ELASTICSEARCH_URL;
if (!esUrl) throw new Error('ELASTICSEARCH_URL must name a node holding the bulk data (see npm run bench)');
const rate = Number(args.rate);
const API_KEY = 'bench-key';
const gcOut = join(tmpdir(), `gc-watch-${process.pid}.txt`);
const gcWatch = resolve(dirname(fileURLToPath(import.meta.url)), 'support/gcWatch.mjs');

/** The open loop over `paths` at `rate`, keeping every answer's due time, with this process's event-loop delay. */
async function run(url: string, paths: string[], seconds: number) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const result = await openLoop({
    url,
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
    headers: { 'x-api-key': API_KEY },
    rate,
    seconds,
    keepSamples: true,
  });
  loop.disable();
  return { samples: result.samples, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 };
}

function report(samples: OpenLoopSample[], loopP99: number, loopMax: number) {
  const sorted = samples.map((s) => s.latencyMs).sort((a, b) => a - b);
  const q = (p: number) => quantile(sorted, p).toFixed(1);
  console.log(
    `${args.scenario} at ${rate}/s: ${sorted.length} answered; p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${q(1)} ms;` +
      ` generator event-loop delay p99 ${loopP99.toFixed(1)} max ${loopMax.toFixed(1)} ms`,
  );
  const threshold = quantile(sorted, 0.99);
  const windows = new Map<number, number>();
  for (const s of samples) {
    if (s.latencyMs < threshold) continue;
    const w = Math.floor(s.dueMs / 100);
    windows.set(w, (windows.get(w) ?? 0) + 1);
  }
  const list = [...windows].sort((a, b) => a[0] - b[0]).map(([w, n]) => `${(w / 10).toFixed(1)}s:${n}`);
  console.log(`slowest 1 % by 100 ms window of due time (second:count): ${list.join(' ')}`);
  const gc = new Map<string, { n: number; sum: number; max: number }>();
  for (const line of readFileSync(gcOut, 'utf8').trim().split('\n')) {
    const [, kind = '?', ms = '0'] = line.split(' ');
    const entry = gc.get(kind) ?? { n: 0, sum: 0, max: 0 };
    entry.n++;
    entry.sum += Number(ms);
    entry.max = Math.max(entry.max, Number(ms));
    gc.set(kind, entry);
  }
  const byKind = [...gc].map(([k, e]) => `${k} ${e.n}x avg ${(e.sum / e.n).toFixed(1)} max ${e.max.toFixed(1)} ms`);
  console.log(`API garbage collections over its life (start-up and warm-up included): ${byKind.join('; ')}`);
}

async function main() {
  const client = createElasticsearchClient({ url: esUrl!, requestTimeoutMs: 60_000 });
  const addresses = await sampleAddresses(client, args.prefix, 2000, 42);
  await client.close();
  const paths = args.scenario === 'keystrokes' ? keystrokePaths(addresses) : placePaths(addresses);
  rmSync(gcOut, { force: true });
  const api = await startApiProcess({
    elasticsearchUrl: esUrl!,
    indexPrefix: args.prefix,
    apiKey: API_KEY,
    nodeOptions: ['--import', gcWatch, ...args['node-opt']],
    env: { GC_WATCH_OUT: gcOut },
  });
  try {
    await run(api.url, paths, Number(args.warmup));
    const { samples, loopP99, loopMax } = await run(api.url, paths, Number(args.seconds));
    // The watcher appends once a second.
    await new Promise((r) => setTimeout(r, 1200));
    report(samples, loopP99, loopMax);
  } finally {
    api.process.kill('SIGTERM');
    rmSync(gcOut, { force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
