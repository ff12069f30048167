/**
 * Quality of the geocoder's entry points beyond structured forward geocoding (that one is `npm run eval`):
 *
 *   npm run eval:entry [-- --manifest datasets/sample.json|datasets/bulk.json] [--sample N] [--seed S]
 *                         [--concurrency 8] [--prefix P] [--only reverse,autocomplete,search,places]
 *   (the names: bench/quality/eval/entry/registry.ts; issue 49's typed forms: forms,forms-autocomplete,unknown-number)
 *
 * Elasticsearch: ELASTICSEARCH_URL, else one is started (dev/elasticsearch/provider.ts). The manifest is indexed
 * with the real indexer under the alias prefix (`eval-sample-` / `bulk-` / `eval-<name>-`) when its aliases are
 * missing. The real app serves every query over HTTP. Each evaluation (bench/quality/eval/entry/*.ts) draws its cases
 * seeded from the live index, prints a table and returns its numbers; all of them go to
 * bench/results/entry-<manifest>-<timestamp>.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { aliasesExist } from '../../indexer/generations/generations.js';
import { runIndexing } from '../../indexer/commands/index.js';
import { createApp } from '../../src/wiring/app.js';
import { DEFAULT_ES_BATCH_MAX, loadConfig, sha256Hex } from '../../src/config/service.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { ENTRY_EVALUATIONS } from './eval/entry/registry.js';
import { evalDataset, SHARED_EVAL_OPTIONS } from './eval/evalArgs.js';
import type { ApiAnswer, EntryEvalContext, EntryEvaluation } from './eval/entry/context.js';
import { RESULTS_DIR } from '../support/defaults.js';

const { values: args } = parseArgs({ options: { ...SHARED_EVAL_OPTIONS, only: { type: 'string' } } });

const log = (msg: string) => process.stderr.write(`[eval:entry] ${msg}\n`);
const { manifestPath, manifestName, prefix } = evalDataset(args.manifest, args.prefix);
const concurrency = Math.max(1, Number(args.concurrency));

async function runAll<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

async function main(): Promise<void> {
  const es = await startElasticsearch({ log });
  log(`Elasticsearch ${es.version} (${es.kind}) at ${es.url}`);
  const client = createElasticsearchClient({ url: es.url, requestTimeoutMs: 600_000 });
  let server: Server | undefined;
  try {
    if (!(await aliasesExist(client, prefix))) {
      log(`indexing ${manifestPath} under "${prefix}" ...`);
      await runIndexing({ client, manifestPath, indexPrefix: prefix, progress: 'none' });
    } else log(`reusing the indexes behind "${prefix}*"`);

    const key = randomBytes(16).toString('hex');
    const config = loadConfig({ INDEX_PREFIX: prefix, ES_BATCH_MAX: String(DEFAULT_ES_BATCH_MAX) });
    const app = createApp({
      config: { ...config, apiKeyDigests: [sha256Hex(key)] },
      client: createElasticsearchClient({ url: es.url, requestTimeoutMs: 30_000 }),
      logger: pino({ level: 'silent' }),
    });
    const listening: Server = await new Promise((res) => {
      const s = app.listen(0, '127.0.0.1', () => res(s));
    });
    server = listening;
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer> => {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json: any = await res.json().catch(() => undefined);
      return { status: res.status, json, ms: performance.now() - t0 };
    };
    const ctx: EntryEvalContext = {
      client,
      prefix,
      manifestName,
      manifestPath,
      limit: args.sample !== undefined ? Number(args.sample) : manifestName === 'sample' ? Infinity : 2_000,
      seed: args.seed,
      api: { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) },
      runAll,
      log,
    };

    const only = args.only?.split(',');
    const results: EntryEvaluation[] = [];
    for (const [name, evaluate] of Object.entries(ENTRY_EVALUATIONS)) {
      if (only && !only.includes(name)) continue;
      log(`${name} ...`);
      const result = await evaluate(ctx);
      results.push(result);
      console.log(`\n### ${result.name} (${manifestName}, prefix "${prefix}")\n\n${result.table}\n`);
    }
    const dir = RESULTS_DIR;
    mkdirSync(dir, { recursive: true });
    const file = resolve(dir, `entry-${manifestName}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ manifest: manifestName, prefix, seed: args.seed, results }, null, 2));
    log(`written ${file}`);
    console.log(results.every((r) => r.pass) ? 'All entry-point targets met.' : 'Some entry-point targets missed.');
  } finally {
    server?.close();
    await client.close();
    await es.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
