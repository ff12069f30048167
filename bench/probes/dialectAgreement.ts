/**
 * `npx tsx bench/probes/dialectAgreement.ts [--prefix bench-bulk-] [--sample 500] [--seed 1] [--concurrency 4]`
 *
 * Do the compatibility dialects answer what native /search answers? The eval's free-text and place texts
 * (`npm run eval:entry`'s, drawn the same seeded way: bench/quality/eval/entry/freeText.ts and places.ts, at most
 * `--sample` addresses and places per class) go to native `/search` and to Nominatim's `/nominatim/search`, Photon's
 * `/photon/api` and Pelias' `/pelias/v1/search`, each with its defaults; the first results agree when they are the
 * same record at the same point (both empty agrees too). Target: >= 99.9 % per dialect. Prints the rates, each
 * disagreement (at most 25 per dialect) and the load average; writes bench/results/dialect-agreement-<time>.json.
 * The real app runs in this process over the `--prefix` indexes at ELASTICSEARCH_URL; it only reads. Run it under
 * `flock /work/heavy.lock` on the shared machine.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { DEFAULT_ES_BATCH_MAX, loadConfig, sha256Hex } from '../../src/config/service.js';
import { createApp } from '../../src/wiring/app.js';
import { drawFreeTextCases } from '../quality/eval/entry/freeText.js';
import { drawPlaceCases } from '../quality/eval/entry/places.js';
import { BULK_PREFIX, elasticsearchUrlFromEnv, RESULTS_DIR } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: BULK_PREFIX },
    sample: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '4' },
  },
});

const TARGET = 0.999;
const SHOWN = 25;
const log = (msg: string) => process.stderr.write(`[dialect-agreement] ${msg}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A first result as the comparison sees it: the record and its point (rounded to 1e-7°, as the answers carry). */
interface Top {
  id: string;
  lon: number;
  lat: number;
  label: string;
}

type Get = (path: string, params: Record<string, string>) => Promise<any>;

/** Each side's first result, read from its own answer shape. */
const SIDES: Record<string, (get: Get, q: string) => Promise<Top | undefined>> = {
  native: async (get, q) => {
    const [r] = await get('/search', { q });
    return r && { id: r.id, lon: r.longitude, lat: r.latitude, label: `${r.type}: ${r.label}` };
  },
  nominatim: async (get, q) => {
    const [r] = await get('/nominatim/search', { q, format: 'jsonv2' });
    return (
      r && { id: r.place_id, lon: Number(r.lon), lat: Number(r.lat), label: `${r.addresstype}: ${r.display_name}` }
    );
  },
  photon: async (get, q) => {
    const [f] = (await get('/photon/api', { q })).features;
    const [lon, lat] = f?.geometry.coordinates ?? [];
    return f && { id: f.properties.id, lon, lat, label: `${f.properties.type}: ${f.properties.name}` };
  },
  pelias: async (get, q) => {
    const [f] = (await get('/pelias/v1/search', { text: q })).features;
    const [lon, lat] = f?.geometry.coordinates ?? [];
    return f && { id: f.properties.id, lon, lat, label: `${f.properties.layer}: ${f.properties.label}` };
  },
};
const DIALECTS = ['nominatim', 'photon', 'pelias'] as const;

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const agree = (a: Top | undefined, b: Top | undefined) =>
  a === undefined || b === undefined ? a === b : a.id === b.id && near(a.lon, b.lon) && near(a.lat, b.lat);

async function runAll<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

async function main() {
  const url = elasticsearchUrlFromEnv();
  const prefix = args.prefix;
  const client = createElasticsearchClient({ url, requestTimeoutMs: 600_000 });
  const ctx = { client, prefix, limit: Number(args.sample), seed: args.seed, log };
  log(`load average before: ${load()}`);
  const texts = [
    ...(await drawFreeTextCases(ctx)).map((c) => ({ kind: 'free text', text: c.text })),
    ...(await drawPlaceCases(ctx)).cases.map((c) => ({ kind: `place: ${c.cls}`, text: c.text })),
  ];

  const key = randomBytes(16).toString('hex');
  const config = loadConfig({ INDEX_PREFIX: prefix, ES_BATCH_MAX: String(DEFAULT_ES_BATCH_MAX) });
  const app = createApp({
    config: { ...config, apiKeyDigests: [sha256Hex(key)], rateLimit: undefined, anonymousRateLimit: undefined },
    client: createElasticsearchClient({ url, requestTimeoutMs: 60_000 }),
    logger: pino({ level: 'silent' }),
  });
  const server: Server = await new Promise((res) => {
    const s = app.listen(0, '127.0.0.1', () => res(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get: Get = async (path, params) => {
    const res = await fetch(`${base}${path}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': key } });
    if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(params)}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  try {
    const started = performance.now();
    log(`${texts.length} texts, 4 requests each ...`);
    const outcomes = await runAll(texts, Number(args.concurrency), async ({ kind, text }) => {
      const tops = Object.fromEntries(
        await Promise.all(Object.entries(SIDES).map(async ([side, top]) => [side, await top(get, text)] as const)),
      ) as Record<string, Top | undefined>;
      return { kind, text, tops };
    });
    const seconds = (performance.now() - started) / 1000;

    const kinds = [...new Set(texts.map((t) => t.kind))];
    const rows = DIALECTS.map((dialect) => {
      const misses = outcomes.filter((o) => !agree(o.tops.native, o.tops[dialect]));
      const byKind = Object.fromEntries(
        kinds.map((k) => [k, misses.filter((o) => o.kind === k).length] as const),
      ) as Record<string, number>;
      return { dialect, n: outcomes.length, agreeing: outcomes.length - misses.length, byKind, misses };
    });
    console.log(`\n| dialect | texts | same top-1 | rate | target | disagreements by kind |`);
    console.log(`| --- | --- | --- | --- | --- | --- |`);
    for (const r of rows) {
      const rate = r.agreeing / r.n;
      const kindsText = Object.entries(r.byKind)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      console.log(
        `| ${r.dialect} | ${r.n} | ${r.agreeing} | ${(rate * 100).toFixed(2)} % | 99.9 % ${rate >= TARGET ? 'met' : 'MISSED'} | ${kindsText || '-'} |`,
      );
    }
    for (const r of rows) {
      for (const m of r.misses.slice(0, SHOWN)) {
        const show = (t: Top | undefined) => (t ? `${t.label} (${t.id} ${t.lon},${t.lat})` : 'nothing');
        log(
          `${r.dialect} [${m.kind}] "${m.text}": native ${show(m.tops.native)} | ${r.dialect} ${show(m.tops[r.dialect])}`,
        );
      }
    }
    // Both sides empty agrees: how many of the agreements that is.
    const nativeEmpty = outcomes.filter((o) => o.tops.native === undefined).length;
    const summary =
      `${texts.length} texts (native /search answered nothing for ${nativeEmpty}) in ${seconds.toFixed(0)} s; ` +
      `load average after: ${load()}`;
    console.log(`\n${summary}`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = resolve(RESULTS_DIR, `dialect-agreement-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const results = rows.map(({ misses, ...r }) => ({ ...r, misses: misses.slice(0, 100) }));
    writeFileSync(file, JSON.stringify({ prefix, seed: args.seed, sample: ctx.limit, summary, results }, null, 2));
    log(`written ${file}`);
  } finally {
    server.close();
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
