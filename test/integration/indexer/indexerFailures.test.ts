/**
 * How an indexing run fails, through the real CLI or runIndexing against the real Elasticsearch: SIGTERM, a
 * malformed manifest, documents Elasticsearch refuses in a full run, and Elasticsearch going away during the bulk
 * load and during the force-merge (a TCP relay between the run's client and the node, cut at a known step). What
 * must hold every time: the aliases stay on the generation that was live, and nothing half-built becomes live.
 * (`/health` answering `not_loaded` while the aliases are missing: backendFailures.test.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { Feature, FeatureCollection } from 'geojson';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexingAbortedError, IndexingError } from '../../../indexer/execution/errors.js';
import { listGenerations, liveGeneration } from '../../../indexer/generations/generations.js';
import { type FinalStep, runIndexing } from '../../../indexer/commands/index.js';
import { readRunLock } from '../../../indexer/generations/runLock.js';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { createElasticsearchClient, guardOf } from '../../../core/elasticsearch/client.js';
import { aliasName, generationIndexName } from '../../../core/elasticsearch/indexNames.js';
import { testElasticsearchUrl } from '../../support/elasticsearch.js';
import { boxPolygon } from '../../support/geometry.js';
import { createLiveGeneration, generationIndexesOf, generationIndexNames } from '../../support/generations.js';
import { aliasTargets, indexerTestSpace } from '../../support/indexerTests.js';
import { Relay } from '../../support/relay.js';

const SAMPLE = 'datasets/sample.json';
/** Small (one country, ten address rows): a whole run takes about a second. */
const SMALL = 'test/fixtures/indexer-broken/manifest.json';
/** Tiny and clean (two countries, five addresses): a run that succeeds in about a second. */
const TINY = 'test/fixtures/indexer-generations/manifest.json';
/** Older than any generation a run makes now: stands for what a previous run left live. */
const EARLIER = '20200101000000000';

const space = indexerTestSpace('indexer-failures');
const { tmp, ownPrefix } = space;
let client: Client;
beforeAll(() => {
  client = space.client;
});

function aliasesOn(p: string, generation: string): Record<string, string[]> {
  return Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, generation)]]));
}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI as an operator runs it; `onStderr` sees the log as it grows (to act at a given step). */
function runCli(args: string[], onStderr?: (stderr: string, child: ReturnType<typeof spawn>) => void): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', ...args], {
    env: { ...process.env, ELASTICSEARCH_URL: testElasticsearchUrl() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('signals', () => {
  it('the CLI catches SIGTERM: exit 143, its indexes deleted, aliases untouched', async () => {
    const p = ownPrefix('sigterm');
    await createLiveGeneration(client, p, EARLIER);
    const indexesBefore = await generationIndexesOf(client, p);
    let sent = false;
    const run = await runCli(
      ['--manifest', SAMPLE, '--prefix', p, '--progress', 'json', '--rejects', join(tmp, 'sigterm.jsonl')],
      (stderr, child) => {
        // Mid-run: the buildings are in, the addresses not yet.
        if (!sent && /"dataset_level":"buildings".*"msg":"level loaded"/.test(stderr)) {
          sent = true;
          child.kill('SIGTERM');
        }
      },
    );
    expect(sent).toBe(true);
    expect(run.code).toBe(143);
    expect(run.stderr).toMatch(/"signal":"SIGTERM".*interrupted/);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, aliasesSwapped: false, previousGeneration: EARLIER });
    expect(await aliasTargets(client, p)).toEqual(aliasesOn(p, EARLIER));
    expect(await generationIndexesOf(client, p)).toEqual(indexesBefore);
  });
});

describe('a signal during the last steps', () => {
  /**
   * A run with the CLI’s signal handling (handleSignals) that receives `signal` as `step` begins: the signal is
   * emitted to the process's listeners at that point, as the kernel's would be, so the order is exact.
   */
  async function runSignalledAt(p: string, step: FinalStep, signal: 'SIGINT' | 'SIGTERM') {
    const logged: { level: 'info' | 'warn' | 'error'; msg: string }[] = [];
    const entry = (level: 'info' | 'warn' | 'error') => (obj: object | string, msg?: string) =>
      void logged.push({ level, msg: msg ?? (typeof obj === 'string' ? obj : JSON.stringify(obj)) });
    let sent = false;
    const outcome = await runIndexing({
      client,
      manifestPath: TINY,
      indexPrefix: p,
      progress: 'none',
      rejectsPath: join(tmp, `${p}rejects.jsonl`),
      rowCacheDir: join(tmp, `${p}rows`),
      handleSignals: true,
      log: { info: entry('info'), warn: entry('warn'), error: entry('error') },
      atStep: (at) => {
        if (at !== step) return;
        sent = true;
        process.emit(signal, signal);
      },
    }).catch((e: unknown) => e);
    expect(sent).toBe(true);
    // Nothing of the run still listens once it has ended.
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(0);
    return { outcome, messages: logged.map((l) => l.msg) };
  }

  it.each(['mark-complete', 'save-row-cache'] as const)(
    'before the swap (%s): the run aborts, deletes its indexes, leaves the aliases alone, and says so',
    async (step) => {
      const p = ownPrefix(`late-${step}`);
      await createLiveGeneration(client, p, EARLIER);
      const indexesBefore = await generationIndexesOf(client, p);
      const { outcome, messages } = await runSignalledAt(p, step, 'SIGTERM');
      // The CLI exits 143 on this error.
      expect(outcome).toBeInstanceOf(IndexingAbortedError);
      expect((outcome as IndexingAbortedError).signalName).toBe('SIGTERM');
      expect((outcome as IndexingError).summary).toMatchObject({ ok: false, aliasesSwapped: false });
      expect(await aliasTargets(client, p)).toEqual(aliasesOn(p, EARLIER));
      expect(await generationIndexesOf(client, p)).toEqual(indexesBefore);
      expect(messages).toContain('interrupted: deleting this run’s indexes');
      expect(messages).not.toContain('aliases swapped');
    },
  );

  it('once the swap has begun: the swap finishes, the run says so and ends as a success; no word of deleting', async () => {
    const p = ownPrefix('late-swap');
    await createLiveGeneration(client, p, EARLIER);
    const { outcome, messages } = await runSignalledAt(p, 'swap', 'SIGINT');
    expect(outcome).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: EARLIER });
    const generation = (outcome as { generation: string }).generation;
    expect(await aliasTargets(client, p)).toEqual(aliasesOn(p, generation));
    expect(messages).toContain('interrupted after the alias swap began: finishing the swap, then exiting');
    expect(messages).toContain(
      `the alias swap finished after the interrupt: generation ${generation} is live; exiting`,
    );
    expect(messages.filter((m) => /delet/.test(m))).toEqual([]);
  });
});

describe('a malformed manifest', () => {
  const country: Feature = {
    type: 'Feature',
    properties: { iso_a3: 'NLD', name: 'NL' },
    geometry: boxPolygon(4, 51, 5, 52),
  };
  const cases: { name: string; files: Record<string, string>; message: RegExp }[] = [
    {
      name: 'not JSON',
      files: { 'manifest.json': '{ "levels": { "countries": [ ' },
      message: /^manifest \S+manifest\.json is not JSON: /,
    },
    {
      name: 'JSON the schema refuses',
      files: {
        'manifest.json': JSON.stringify({
          // `name` of the wrong type (a missing name is allowed since per-language `names` can stand in for it).
          levels: { countries: [{ file: 'countries.geojson', format: 'geojson', fields: { key: 'iso_a3', name: 5 } }] },
        }),
        'countries.geojson': JSON.stringify({ type: 'FeatureCollection', features: [country] }),
      },
      message: /^invalid manifest:\n {2}levels\.countries\.0\.fields\.name: /,
    },
    {
      name: 'a source file that does not exist',
      files: {
        'manifest.json': JSON.stringify({
          levels: {
            countries: [{ file: 'no-such-file.geojson', format: 'geojson', fields: { key: 'iso_a3', name: 'name' } }],
          },
        }),
      },
      message: /no-such-file\.geojson/,
    },
  ];

  it.each(cases)(
    '$name: exit 2, one message on stderr, nothing created in Elasticsearch',
    async ({ files, message }) => {
      const p = ownPrefix('manifest');
      const dir = join(tmp, p);
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const run = await runCli(['--manifest', join(dir, 'manifest.json'), '--prefix', p, '--progress', 'none']);
      expect(run.code).toBe(2);
      // The message alone, as for a usage error: no log lines, no run summary (no run began).
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/"level":|indexing started/);
      expect(run.stdout).toBe('');
      // No index at all under the prefix: no generation, no alias, not even the run lock's.
      expect(await client.cat.indices({ index: `${p}*`, format: 'json', h: 'index' })).toEqual([]);
    },
  );
});

describe('documents Elasticsearch refuses in a full run', () => {
  /**
   * Five buildings in one country; two have a building type longer than the 32,766 bytes Lucene takes for one
   * keyword term, so Elasticsearch refuses those two documents (the indexer itself finds nothing wrong with them).
   */
  function refusedFixture(dir: string): string {
    mkdirSync(dir, { recursive: true });
    const immense = 'x'.repeat(40_000);
    const countries: FeatureCollection = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { iso_a3: 'NLD', name: 'Netherlands' }, geometry: boxPolygon(4, 51, 5, 53) },
      ],
    };
    const buildings: FeatureCollection = {
      type: 'FeatureCollection',
      features: [1, 2, 3, 4, 5].map((n) => ({
        type: 'Feature',
        properties: { ref: `B${n}`, building: n === 2 || n === 4 ? immense : 'house' },
        geometry: boxPolygon(4.35 + n * 0.001, 52, 4.3505 + n * 0.001, 52.0005),
      })),
    };
    writeFileSync(join(dir, 'countries.geojson'), JSON.stringify(countries));
    writeFileSync(join(dir, 'buildings.geojson'), JSON.stringify(buildings));
    const manifest = {
      levels: {
        countries: [{ file: 'countries.geojson', format: 'geojson', fields: { key: 'iso_a3', name: 'name' } }],
        buildings: [
          {
            file: 'buildings.geojson',
            format: 'geojson',
            fields: { key: 'ref', localIdentifier: 'ref', buildingType: 'building' },
            parent: { by: 'spatial' },
          },
        ],
      },
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    return join(dir, 'manifest.json');
  }

  it('reach the rejects file with their reason and line, and the counts reconcile', async () => {
    const p = ownPrefix('refused');
    const rejectsPath = join(tmp, 'refused.jsonl');
    const summary = await runIndexing({
      client,
      manifestPath: refusedFixture(join(tmp, 'refused')),
      indexPrefix: p,
      progress: 'none',
      rejectsPath,
      maxRejectRatio: 1,
      handleSignals: false,
    });
    expect(summary.ok).toBe(true);
    expect(summary.levels.buildings).toMatchObject({ read: 5, indexed: 3, rejected: 2, merged: 0, count: 3 });
    expect(summary.levels.buildings.rejectReasons).toEqual({ elasticsearch_error: 2 });
    expect(summary.rejects).toEqual({ path: rejectsPath, count: 2, byReason: { elasticsearch_error: 2 } });
    const lines = readFileSync(rejectsPath, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            level: string;
            source: string;
            line: number;
            reason: string;
            detail: string;
            record: { id?: string };
          },
      );
    expect(lines.map((l) => [l.level, l.line, l.reason]).sort()).toEqual([
      ['buildings', 2, 'elasticsearch_error'],
      ['buildings', 4, 'elasticsearch_error'],
    ]);
    expect(lines.every((l) => l.source.endsWith('buildings.geojson'))).toBe(true);
    for (const l of lines) expect(l.detail).toMatch(/^HTTP 400: document_parsing_exception .*\[building_type\]/);
    // What a user would notice: the three accepted buildings are there, the refused ones are not.
    const live = await client.search<{ local_identifier: string }>({ index: aliasName(p, 'buildings'), size: 10 });
    expect(live.hits.hits.map((h) => h._source?.local_identifier).sort()).toEqual(['B1', 'B3', 'B5']);
  });

  it('fail the run past --max-reject-ratio: aliases untouched, no index left', async () => {
    const p = ownPrefix('refused-ratio');
    await createLiveGeneration(client, p, EARLIER);
    const indexesBefore = await generationIndexesOf(client, p);
    const error = await runIndexing({
      client,
      manifestPath: refusedFixture(join(tmp, 'refused-ratio')),
      indexPrefix: p,
      progress: 'none',
      rejectsPath: join(tmp, 'refused-ratio.jsonl'),
      handleSignals: false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    expect((error as IndexingError).summary?.aliasesSwapped).toBe(false);
    expect((error as IndexingError).summary?.problems.join('\n')).toMatch(/buildings: 2 of 5 records rejected/);
    expect(await aliasTargets(client, p)).toEqual(aliasesOn(p, EARLIER));
    expect(await generationIndexesOf(client, p)).toEqual(indexesBefore);
  });
});

describe('Elasticsearch going away mid-run', () => {
  /**
   * The run's client reaches the node through a relay; `cutBefore('bulk')` closes the relay as the first bulk
   * request after the countries are loaded is made (the addresses), `cutAfter('forcemerge')` right after the first
   * force-merge has been started (the areas). Only the run's client is cut: the test reads through its own.
   */
  async function runCutAt(step: 'bulk' | 'forcemerge', p: string) {
    const relay = new Relay(new URL(testElasticsearchUrl()));
    await relay.open();
    const runClient = createElasticsearchClient({ url: relay.url, requestTimeoutMs: 10_000 });
    let cut = false;
    let countriesLoaded = false;
    const cutRelay = async () => {
      cut = true;
      await relay.close();
    };
    const hooked = new Proxy(runClient, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (step === 'bulk' && prop === 'bulk') {
          return async (...args: Parameters<Client['bulk']>) => {
            if (countriesLoaded && !cut) await cutRelay();
            return target.bulk(...args);
          };
        }
        if (step === 'forcemerge' && prop === 'indices') {
          return new Proxy(value as Client['indices'], {
            get(indices, name) {
              if (name !== 'forcemerge') return Reflect.get(indices, name);
              return async (...args: Parameters<Client['indices']['forcemerge']>) => {
                const started = await indices.forcemerge(...args);
                if (!cut) await cutRelay();
                return started;
              };
            },
          });
        }
        return value;
      },
    });
    const log = {
      info: (obj: object | string) => {
        if (typeof obj === 'object' && (obj as { dataset_level?: string }).dataset_level === 'countries') {
          countriesLoaded = true;
        }
      },
      warn: () => {},
      error: () => {},
    };
    try {
      const error = await runIndexing({
        client: hooked,
        manifestPath: SMALL,
        indexPrefix: p,
        progress: 'none',
        rejectsPath: join(tmp, `${p}rejects.jsonl`),
        maxRejectRatio: 1,
        handleSignals: false,
        log,
        // One quick retry of a failed bulk request instead of the production backoff of about a minute.
        tuning: { requestRetries: 1 },
        // The run cannot release its lock while the node is unreachable: a short lease frees the prefix soon.
        lease: { leaseMs: 2_000, renewEveryMs: 500 },
      }).catch((e: unknown) => e);
      return { error, cut };
    } finally {
      guardOf(runClient)?.stop();
      await runClient.close();
      await relay.close();
    }
  }

  it.each(['bulk', 'forcemerge'] as const)(
    'during the %s: the run fails, the aliases stay, the leftover is incomplete and the next run removes it',
    async (step) => {
      const p = ownPrefix(`cut-${step}`);
      await createLiveGeneration(client, p, EARLIER);
      const { error, cut } = await runCutAt(step, p);
      expect(cut).toBe(true);
      expect(error).toBeInstanceOf(IndexingError);
      const failed = (error as IndexingError).summary;
      expect(failed).toMatchObject({ ok: false, aliasesSwapped: false, previousGeneration: EARLIER });
      // Read directly, not through the relay: the live generation is the one from before the run.
      expect(await aliasTargets(client, p)).toEqual(aliasesOn(p, EARLIER));
      // The run could not delete its own indexes while the node was unreachable: they are left, never marked
      // complete (so never a rollback target) and not live.
      const generations = await listGenerations(client, p);
      expect(generations.map((g) => [g.generation, g.live, g.complete])).toEqual([
        [failed?.generation, false, false],
        [EARLIER, true, true],
      ]);
      // The next run, once the failed run's lease has run out, removes them as orphans of a dead run.
      const lock = await readRunLock(client, p);
      if (lock) await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(lock.expires_at) - Date.now() + 100)));
      const next = await runIndexing({
        client,
        manifestPath: SMALL,
        indexPrefix: p,
        progress: 'none',
        rejectsPath: join(tmp, `${p}next.jsonl`),
        maxRejectRatio: 1,
        handleSignals: false,
      });
      expect(await liveGeneration(client, p)).toBe(next.generation);
      expect(next.orphansRemoved).toEqual([failed?.generation]);
      expect(await generationIndexesOf(client, p)).toEqual(
        [...generationIndexNames(p, next.generation), ...Object.values(aliasesOn(p, EARLIER)).flat()].sort(),
      );
    },
  );
});
