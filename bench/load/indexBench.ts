/**
 * npm run bench:index [-- --small] [-- --no-cap] [-- --only small|medium|large|capped] [-- --probe]
 * npm run bench:index -- --manifest [LABEL=]MANIFEST ... [--rounds 1] [--probe]
 *
 * Address indexing throughput through the indexer (read, parse, normalise, spatial joins, bulk) next
 * to raw `_bulk` requests of the very same documents sent straight to Elasticsearch in the same run,
 * and the indexer's peak RSS on the small (Delft, 8.9k rows), a medium (Flevoland, 222k rows) and the
 * largest address file (Brussels, 844k rows). The indexer runs as a child process so its memory is measured alone. A third run of the
 * large file under a 128 MB V8 old-space cap shows the heap the stream really needs: without a cap V8
 * grows its heap lazily, so the uncapped peak says more about V8 than about the indexer.
 *
 * --manifest: these manifests instead of the cases above (no raw _bulk), in interleaved rounds (the order rotating),
 * the load average logged with each; e.g. the CSV and BAG GeoPackage manifests of the same addresses that
 * scripts/fixtures/makeBulkBagGeoPackage.ts writes.
 *
 * Elasticsearch as for `npm run bench`: ELASTICSEARCH_URL when set (an external node, left running), else a node
 * started for the run (testcontainers or the local launcher, 1 GB heap) and stopped at the end.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@elastic/elasticsearch';
import { DEFAULT_TUNING } from '../../indexer/execution/bulkLoader.js';
import { listGenerations } from '../../indexer/generations/generations.js';
import { loadManifest, parseManifest } from '../../indexer/manifest/manifest.js';
import { createGenerationIndex, deleteIndexes } from '../../indexer/generations/generationIndexes.js';
import type { RunSummary } from '../../indexer/execution/summary.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { runWithPeakRss } from '../support/childPeakRss.js';
import { REPO_ROOT } from '../support/defaults.js';
import { roundOrder } from '../support/interleave.js';

const work = join(tmpdir(), `index-bench-${process.pid}`);

/** What bench/support/addressPhaseProbe.ts wrote (see there). */
interface AddressPhaseProbe {
  phaseMs: number;
  readMs: number;
  idleMsByInFlight: number[];
  wallMsByInFlight: number[];
  bulkRequests: number;
  bulkBytes: number;
  bulkRoundTripMsMedian: number;
  bulkRoundTripMsP90: number;
  mainThreadCpuMs: number;
  processCpuMs: number;
  gc: { minor: number; minorMs: number; major: number; majorMs: number };
}

interface ChildResult {
  summary: RunSummary;
  peakRssMb: number;
  wallMs: number;
  probe?: AddressPhaseProbe;
}

/** Peak RSS from /proc (VmHWM, sampled until exit) and from the child's own getrusage, whichever is higher. */
async function runIndexer(
  url: string,
  manifest: string,
  prefix: string,
  nodeFlags: string[] = [],
  probe = false,
): Promise<ChildResult> {
  const probeOut = join(work, `${prefix}probe.json`);
  const probeEnv = probe
    ? {
        ADDRESS_PROBE_OUT: probeOut,
        ADDRESS_PROBE_FILES: ((await loadManifest(manifest)).manifest.levels.addresses ?? [])
          .map((s) => s.file)
          .join(','),
      }
    : {};
  const { code, stdout, peakRssMb, wallMs } = await runWithPeakRss(
    process.execPath,
    [
      ...nodeFlags,
      '--import',
      'tsx',
      ...(probe ? ['--import', join(REPO_ROOT, 'bench/support/addressPhaseProbe.ts')] : []),
      join(REPO_ROOT, 'indexer/cli.ts'),
      '--manifest',
      manifest,
      '--prefix',
      prefix,
      '--progress',
      'none',
      '--keep',
      '1',
      '--rejects',
      join(work, `${prefix}rejects.jsonl`),
    ],
    { cwd: REPO_ROOT, env: { ...process.env, ELASTICSEARCH_URL: url, LOG_LEVEL: 'warn', ...probeEnv } },
  );
  if (code !== 0) throw new Error(`indexer exited with ${code}: ${stdout.slice(0, 2000)}`);
  const summary = JSON.parse(stdout) as RunSummary;
  return {
    summary,
    peakRssMb: Math.max(peakRssMb, summary.peakRssMb),
    wallMs,
    ...(probe ? { probe: JSON.parse(readFileSync(probeOut, 'utf8')) as AddressPhaseProbe } : {}),
  };
}

/**
 * The same documents, already serialised into ~flushBytes NDJSON bodies on disk, sent with the same
 * concurrency to a fresh index with the same loading settings: the rate Elasticsearch itself allows.
 */
async function rawBulk(client: Client, sourceAlias: string, rawIndex: string): Promise<{ docs: number; ms: number }> {
  const dir = join(work, rawIndex);
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let body: string[] = [];
  let bytes = 0;
  let docs = 0;
  const flush = () => {
    if (!body.length) return;
    const file = join(dir, `${files.length}.ndjson`);
    writeFileSync(file, `${body.join('\n')}\n`);
    files.push(file);
    body = [];
    bytes = 0;
  };
  let after: unknown[] | undefined;
  for (;;) {
    const page = await client.search<Record<string, unknown>>({
      index: sourceAlias,
      size: 10_000,
      sort: [{ id: 'asc' }],
      ...(after ? { search_after: after as never } : {}),
    });
    const hits = page.hits.hits;
    if (!hits.length) break;
    for (const hit of hits) {
      const action = JSON.stringify({ index: { _id: hit._id } });
      const source = JSON.stringify(hit._source);
      body.push(action, source);
      bytes += action.length + source.length + 2;
      docs++;
      if (bytes >= DEFAULT_TUNING.flushBytes) flush();
    }
    after = hits[hits.length - 1]?.sort;
  }
  flush();

  await createGenerationIndex(client, rawIndex, 'addresses');
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++] as string;
      const ndjson = await readFile(file, 'utf8');
      const res = await client.transport.request<{ errors: boolean }>({
        method: 'POST',
        path: `/${rawIndex}/_bulk`,
        bulkBody: ndjson,
      });
      if (res.errors) throw new Error('raw bulk request had item errors');
    }
  };
  await Promise.all(Array.from({ length: DEFAULT_TUNING.concurrency }, worker));
  const ms = Date.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return { docs, ms };
}

/** The bulk manifest with only the address files matching `fileFragment`, its paths made absolute by the indexer's own parser. */
function bulkSubsetManifest(fileFragment: string, name: string): string {
  const bulk = parseManifest(
    JSON.parse(readFileSync(join(REPO_ROOT, 'datasets/bulk.json'), 'utf8')),
    join(REPO_ROOT, 'datasets'),
  );
  bulk.levels.addresses = (bulk.levels.addresses ?? []).filter((s) => s.file.includes(fileFragment));
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify(bulk));
  return path;
}

async function cleanup(client: Client, prefix: string, extra: string[] = []): Promise<void> {
  const generations = await listGenerations(client, prefix);
  const indexes = generations.flatMap((g) => Object.values(g.indexes).map((i) => i.index));
  await deleteIndexes(client, [...indexes, ...extra]);
}

interface Row {
  case: string;
  rows: number;
  documents: number;
  indexerDocsPerSec: number;
  rawBulkDocsPerSec: number | null;
  indexerShareOfRaw: string;
  peakRssMb: number;
  wallSeconds: number;
  load: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean' },
      'no-cap': { type: 'boolean' },
      only: { type: 'string' },
      probe: { type: 'boolean' },
      manifest: { type: 'string', multiple: true },
      rounds: { type: 'string', default: '1' },
    },
  });
  mkdirSync(work, { recursive: true });
  const es = await startElasticsearch({ heap: '1g', log: (m) => process.stderr.write(`[es] ${m}\n`) });
  const url = es.url;
  process.stderr.write(`[es] Elasticsearch ${es.version} (${es.kind}) at ${url}\n`);
  const client = createElasticsearchClient({ url, requestTimeoutMs: 600_000 });
  let cases: { name: string; manifest: string; flags?: string[]; raw: boolean }[] = [
    { name: 'small: Delft (datasets/sample.json)', manifest: join(REPO_ROOT, 'datasets/sample.json'), raw: true },
  ];
  if (!values.small) {
    // A middle size shows where memory levels off: it must not keep growing towards the large file.
    cases.push({
      name: 'medium: Flevoland (222k rows)',
      manifest: bulkSubsetManifest('flevoland', 'flevoland'),
      raw: false,
    });
    const manifest = bulkSubsetManifest('brussel', 'brussels');
    cases.push({ name: 'large: Brussels (844k rows)', manifest, raw: true });
    if (!values['no-cap']) {
      cases.push({
        name: 'large: Brussels, V8 old space capped at 128 MB',
        manifest,
        flags: ['--max-old-space-size=128'],
        raw: false,
      });
    }
  }
  // --only large: the uncapped Brussels run alone (capped: the 128 MB one), for A/B pairs that take minutes, not ten.
  const only = values.only;
  if (values.manifest?.length) {
    const given = values.manifest.map((spec) => {
      const eq = spec.indexOf('=');
      return {
        name: eq > 0 ? spec.slice(0, eq) : spec,
        manifest: resolve(eq > 0 ? spec.slice(eq + 1) : spec),
        raw: false,
      };
    });
    cases = [];
    for (let round = 0; round < Number(values.rounds); round++) cases.push(...roundOrder(given, round, 'rotate'));
  } else if (only) {
    cases = cases.filter((c) =>
      only === 'capped' ? c.name.includes('capped') : c.name.startsWith(`${only}:`) && !c.name.includes('capped'),
    );
  }
  const rows: Row[] = [];
  const waits: ReturnType<typeof addressPhaseWaits>[] = [];
  let heap: number | undefined;
  try {
    for (const [i, c] of cases.entries()) {
      const prefix = `bench-index-${process.pid}-${i}-`;
      const rawIndex = `${prefix}raw-addresses`;
      const loadBefore = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      process.stderr.write(`indexing ${c.name} (load average ${loadBefore}) ...\n`);
      try {
        const result = await runIndexer(url, c.manifest, prefix, c.flags, values.probe);
        if (result.probe) waits.push(addressPhaseWaits(c.name, result.summary.levels.addresses.read, result.probe));
        const a = result.summary.levels.addresses;
        let raw: { docs: number; ms: number } | undefined;
        if (c.raw) {
          process.stderr.write(`raw _bulk of the same ${a.count} documents ...\n`);
          raw = await rawBulk(client, aliasName(prefix, 'addresses'), rawIndex);
        }
        const rawRate = raw ? Math.round(raw.docs / (raw.ms / 1000)) : null;
        rows.push({
          case: c.name,
          rows: a.read,
          documents: a.count,
          indexerDocsPerSec: result.summary.addressesPerSecond,
          rawBulkDocsPerSec: rawRate,
          indexerShareOfRaw: rawRate ? `${Math.round((100 * result.summary.addressesPerSecond) / rawRate)}%` : '',
          peakRssMb: result.peakRssMb,
          wallSeconds: Math.round(result.wallMs / 100) / 10,
          load: `${loadBefore} -> ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
        });
      } finally {
        await cleanup(client, prefix, [rawIndex]);
      }
    }
    heap = await heapMaxBytes(url);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await client.close();
    await es.stop();
  }
  console.log(
    `\nindexer vs raw _bulk (flushBytes ${DEFAULT_TUNING.flushBytes}, concurrency ${DEFAULT_TUNING.concurrency}; Elasticsearch ${url}${heap ? `, heap ${Math.round(heap / 2 ** 20)} MB` : ''})`,
  );
  console.table(rows);
  console.log(
    'indexerDocsPerSec = address rows read / address phase time (CSV parse, normalisation, spatial joins, bulk).\n' +
      'rawBulkDocsPerSec = the indexed documents re-sent as pre-serialised _bulk bodies, same concurrency.\n' +
      'peakRssMb = peak resident set size of the indexer process (VmHWM / getrusage).',
  );
  if (waits.length) {
    console.log('\nwhere the address phase waits (--probe: bench/support/addressPhaseProbe.ts)');
    console.table(waits);
    console.log(
      'mainUsPerRow/processUsPerRow = CPU of the main thread / of the whole indexer process per address row.\n' +
        'idleFreeSlotMs = main thread idle while a bulk slot was free (waiting for input: a read-stage bubble);\n' +
        'idleSlotsBusyMs = idle with every slot busy (waiting for Elasticsearch). gc = scavenges / major, total ms.',
    );
  }
  console.log(JSON.stringify({ results: rows, ...(waits.length ? { waits } : {}) }));
}

function addressPhaseWaits(name: string, rows: number, p: AddressPhaseProbe) {
  const concurrency = DEFAULT_TUNING.concurrency;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + (b ?? 0), 0);
  return {
    case: name,
    phaseMs: p.phaseMs,
    readMs: p.readMs,
    mainUsPerRow: Math.round((p.mainThreadCpuMs * 1000) / Math.max(1, rows)),
    processUsPerRow: Math.round((p.processCpuMs * 1000) / Math.max(1, rows)),
    idleFreeSlotMs: sum(p.idleMsByInFlight.slice(0, concurrency)),
    idleSlotsBusyMs: sum(p.idleMsByInFlight.slice(concurrency)),
    bulkRequests: p.bulkRequests,
    bulkMB: Math.round(p.bulkBytes / 1e5) / 10,
    bulkMsMedian: Math.round(p.bulkRoundTripMsMedian),
    gc: `${p.gc.minor}/${p.gc.major}, ${p.gc.minorMs + p.gc.majorMs} ms`,
  };
}

async function heapMaxBytes(url: string): Promise<number | undefined> {
  const nodes = await fetch(`${url}/_nodes/stats/os,jvm`)
    .then((r) => r.json() as Promise<{ nodes: Record<string, { jvm?: { mem?: { heap_max_in_bytes?: number } } }> }>)
    .catch(() => undefined);
  return Object.values(nodes?.nodes ?? {})[0]?.jvm?.mem?.heap_max_in_bytes;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
