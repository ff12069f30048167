/**
 * npm run bench:update [-- --prefix upd-bench-] [--fraction 0.001] [--seed 34] [--manifest datasets/bulk.json]
 *                      [--dry-run-too]
 *
 * `update` against a full run on the bulk data: A = the manifest's snapshot indexed in full under --prefix; B = a
 * copy of its address files with --fraction of the rows changed, drawn seeded in equal parts: removed, added (a copy
 * of the row with a new id and house number), renamed (the row's street name changed) and moved (the point shifted
 * ~50 m). Then, as child processes (peak RSS from /proc), `update` to B and a full run on B, one after the other,
 * the load average beside each. Then update equals rebuild on the bulk data: the counts per kind of both
 * generations, and 10,000 documents drawn (seeded) from the full run's addresses, streets and places compared
 * field by field with the update's. Deletes every index and row cache of --prefix at the end. Run it inside
 * `flock /work/heavy.lock` on a shared machine. ELASTICSEARCH_URL: the node to use (default http://127.0.0.1:9200).
 */
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { Client } from '@elastic/elasticsearch';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { seededRandom } from '../../indexer/base/seededRandom.js';
import { runWithPeakRss } from '../support/childPeakRss.js';
import { REPO_ROOT } from '../support/defaults.js';
import { absolutePaths } from '../../indexer/manifest/absolutePaths.js';
import { pruneRowCaches } from '../../indexer/rows/rowCacheFile.js';
import { rowCacheDir } from '../../indexer/rows/rowCacheRun.js';

const { values } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'upd-bench-' },
    fraction: { type: 'string', default: '0.001' },
    seed: { type: 'string', default: '34' },
    manifest: { type: 'string', default: 'datasets/bulk.json' },
    'skip-full-a': { type: 'boolean', default: false },
    'dry-run-too': { type: 'boolean', default: false },
  },
});
const prefix = values.prefix;
if (prefix.startsWith('bench-bulk')) throw new Error('--prefix must not be the shared bench-bulk- data');
const fraction = Number(values.fraction);
const random = seededRandom(Number(values.seed));
const work = join(tmpdir(), `update-bench-${process.pid}`);
const url = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';

type Json = Record<string, unknown>;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const log = (line: string) => process.stderr.write(`[bench:update] ${line}\n`);

interface Edits {
  rows: number;
  removed: number;
  added: number;
  renamed: number;
  moved: number;
}

/** One address file of B: every row of A's, a seeded `fraction` of them changed. Rows with quotes are kept as is. */
async function writeChanged(source: string, target: string, edits: Edits): Promise<void> {
  const input = source.endsWith('.gz') ? createReadStream(source).pipe(createGunzip()) : createReadStream(source);
  const out = createWriteStream(target);
  let header: string[] | undefined;
  let at: Record<string, number> = {};
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!header) {
      header = line.split(',');
      at = Object.fromEntries(header.map((h, i) => [h, i]));
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      continue;
    }
    edits.rows++;
    let text = line;
    if (!line.includes('"') && random() < fraction) {
      const cells = line.split(',');
      const kind = Math.floor(random() * 4);
      if (kind === 0) {
        edits.removed++;
        continue;
      }
      if (kind === 1) {
        edits.added++;
        const copy = [...cells];
        // Column names of the bulk files (id, number) or of the sample's OpenStreetMap file (osm_id, housenumber).
        const idAt = (at.id ?? at.osm_id) as number;
        const numberAt = (at.number ?? at.housenumber) as number;
        copy[idAt] = `${cells[idAt]}-b`;
        copy[numberAt] = String(Number(cells[numberAt]) + 10000);
        text = `${line}\n${copy.join(',')}`;
      } else if (kind === 2) {
        edits.renamed++;
        cells[at.street as number] = `${cells[at.street as number]} Noord`;
        text = cells.join(',');
      } else {
        edits.moved++;
        cells[at.lon as number] = (Number(cells[at.lon as number]) + 0.0007).toFixed(7);
        text = cells.join(',');
      }
    }
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

interface Step {
  label: string;
  wallMs: number;
  peakRssMb: number;
  load: string;
  summary: Json;
}

async function cli(label: string, args: string[]): Promise<Step> {
  const before = load();
  log(`${label}: started, load average ${before}`);
  const run = await runWithPeakRss(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'indexer/cli.ts'), ...args, '--prefix', prefix, '--progress', 'none'],
    { cwd: REPO_ROOT, env: { ...process.env, ELASTICSEARCH_URL: url, LOG_LEVEL: 'warn' } },
  );
  const summary = JSON.parse(run.stdout) as Json;
  if (run.code !== 0) throw new Error(`${label} failed (exit ${run.code}): ${JSON.stringify(summary.problems)}`);
  log(
    `${label}: ${(run.wallMs / 1000).toFixed(1)} s, peak RSS ${run.peakRssMb} MB, load average ${before} -> ${load()}`,
  );
  return { label, wallMs: run.wallMs, peakRssMb: run.peakRssMb, load: `${before} -> ${load()}`, summary };
}

/** Documents drawn from the full run's generation, compared field by field with the update's. */
async function compareDrawn(client: Client, updated: string, full: string, draws: number): Promise<Json> {
  const out: Json = {};
  const perKind = { addresses: Math.round(draws * 0.8), streets: Math.round(draws * 0.1), places: draws / 10 };
  for (const [kind, size] of Object.entries(perKind) as [keyof typeof perKind, number][]) {
    const res = await client.search({
      index: generationIndexName(prefix, kind, full),
      size,
      query: { function_score: { functions: [{ random_score: { seed: Number(values.seed), field: '_seq_no' } }] } },
    });
    const ids = res.hits.hits.map((h) => h._id as string);
    const mine = await client.mget({ index: generationIndexName(prefix, kind, updated), ids });
    const byId = new Map(mine.docs.map((d) => [d._id, (d as { _source?: unknown })._source]));
    const differing = res.hits.hits.filter(
      (h) => JSON.stringify(byId.get(h._id as string)) !== JSON.stringify(h._source),
    );
    out[kind] = { compared: ids.length, differing: differing.length, firstDiffering: differing[0]?._id ?? null };
  }
  return out;
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  const client = createElasticsearchClient({ url, requestTimeoutMs: 300_000, maxRetries: 2 });
  try {
    const manifestPath = resolve(values.manifest);
    const manifest = absolutePaths(JSON.parse(readFileSync(manifestPath, 'utf8')), dirname(manifestPath)) as {
      levels: { addresses: { file: string }[] };
    };
    const a = join(work, 'a.json');
    writeFileSync(a, JSON.stringify(manifest));
    const edits: Edits = { rows: 0, removed: 0, added: 0, renamed: 0, moved: 0 };
    for (const [i, source] of manifest.levels.addresses.entries()) {
      const target = join(work, `addresses-${i}.csv`);
      await writeChanged(source.file, target, edits);
      source.file = target;
    }
    const b = join(work, 'b.json');
    writeFileSync(b, JSON.stringify(manifest));
    log(`B written: ${JSON.stringify(edits)}`);

    const steps: Step[] = [];
    if (!values['skip-full-a']) steps.push(await cli('full A', ['--manifest', a]));
    if (values['dry-run-too']) steps.push(await cli('update B --dry-run', ['update', '--manifest', b, '--dry-run']));
    const update = await cli('update B', ['update', '--manifest', b]);
    const full = await cli('full B', ['--manifest', b]);
    steps.push(update, full);
    const updated = update.summary.generation as string;
    const rebuilt = full.summary.generation as string;
    const counts: Json = {};
    for (const kind of INDEX_KINDS) {
      const [u, f] = await Promise.all(
        [updated, rebuilt].map(
          async (g) => (await client.count({ index: generationIndexName(prefix, kind, g) })).count,
        ),
      );
      counts[kind] = { update: u, full: f };
    }
    const drawn = await compareDrawn(client, updated, rebuilt, 10_000);
    const report = {
      edits,
      fraction,
      steps: steps.map(({ label, wallMs, peakRssMb, load: l, summary }) => ({
        label,
        wallS: +(wallMs / 1000).toFixed(1),
        peakRssMb,
        load: l,
        changes: summary.changes,
        rows: summary.rows,
        timingsMs: summary.timingsMs,
        durationMs: summary.durationMs,
      })),
      updateOverFull: +(update.wallMs / full.wallMs).toFixed(3),
      counts,
      drawn,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    const indexes = await client.cat.indices({ index: `${prefix}*`, h: 'index', format: 'json' }).catch(() => []);
    for (const { index } of indexes as { index?: string }[]) if (index) await client.indices.delete({ index });
    await pruneRowCaches(rowCacheDir(undefined), prefix, []);
    await client.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
