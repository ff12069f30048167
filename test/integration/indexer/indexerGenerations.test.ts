/**
 * The indexer's data safety against a real Elasticsearch: merge counts that come from what the bulk loader saw (so
 * `_count = indexed − merged` catches a vanished document), prunes that keep the known-good generations, the run
 * lock (one run per prefix at a time, crashed runs' leases taken over) and removal of a killed run's orphans.
 * Runs use a tiny fixture (test/fixtures/indexer-generations) except where a run must last long enough to be killed.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad, type LoadItem } from '../../../indexer/execution/bulkLoader.js';
import { IndexingError } from '../../../indexer/execution/errors.js';
import { createGenerationIndex } from '../../../indexer/generations/generationIndexes.js';
import { listGenerations, liveGeneration, rollback } from '../../../indexer/generations/generations.js';
import { stableId } from '../../../indexer/records/ids.js';
import { type RunOptions, runIndexing } from '../../../indexer/commands/index.js';
import { arrayItems } from '../../../indexer/execution/runContext.js';
import { acquireRunLock, RunLockedError } from '../../../indexer/generations/runLock.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { type AddressDoc, INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import {
  createTestClient,
  deleteIndexesWithPrefix,
  testElasticsearchUrl,
  uniqueIndexPrefix,
} from '../../support/elasticsearch.js';
import { generationIndexesOf, generationIndexNames } from '../../support/generations.js';

const FIXTURE = 'test/fixtures/indexer-generations/manifest.json';
const SAMPLE = 'datasets/sample.json';
/** Where the run lock of a prefix lives (indexer/generations/runLock.ts); written by hand here to play another holder. */
const lockIndex = (p: string) => `${p}indexer-lock`;
const LOCK_ID = 'lock';

let client: Client;
const base = uniqueIndexPrefix('generations');
let prefixes = 0;
/** A fresh prefix per test: each starts from an empty deployment. */
const freshPrefix = () => `${base}${++prefixes}-`;
const tmp = join(tmpdir(), `indexer-generations-test-${process.pid}`);

function index(p: string, extra: Partial<RunOptions> = {}): Promise<RunSummary> {
  return runIndexing({
    client,
    manifestPath: FIXTURE,
    indexPrefix: p,
    progress: 'none',
    rejectsPath: join(tmp, `${p}${Date.now()}.jsonl`),
    handleSignals: false,
    ...extra,
  });
}

/** Another indexer's lock, as it would have written it. */
async function writeForeignLock(p: string, expiresAt: Date): Promise<void> {
  await client.index({
    index: lockIndex(p),
    id: LOCK_ID,
    refresh: true,
    document: {
      holder: { host: 'other-host', pid: 4242, operation: 'index', generation: '20200101000000000' },
      acquired_at: new Date(expiresAt.getTime() - 120_000).toISOString(),
      expires_at: expiresAt.toISOString(),
    },
  });
}

async function lockDocument(p: string): Promise<Record<string, any> | undefined> {
  const res = await client.get({ index: lockIndex(p), id: LOCK_ID }, { ignore: [404] }).catch(() => undefined);
  return res?.found ? (res._source as Record<string, any>) : undefined;
}

beforeAll(() => {
  client = createTestClient();
});

afterAll(async () => {
  await deleteIndexesWithPrefix(client, base);
  rmSync(tmp, { recursive: true, force: true });
  await client.close();
});

describe('merge counts', () => {
  it('counts true duplicates in both arrival orders as merged and keeps the better-joined one', async () => {
    const p = freshPrefix();
    const summary = await index(p);
    // Mekelweg 8: the better record arrives first, the worse one is refused (409). Schieweg 9a: the worse record
    // (outside every country) arrives first and is overwritten by the better one (bulk result "updated").
    expect(summary.ok).toBe(true);
    expect(summary.levels.addresses).toMatchObject({ read: 5, indexed: 5, rejected: 0, merged: 2, count: 3 });
    const docs = await client.search<AddressDoc>({ index: `${p}addresses`, size: 10 });
    const schieweg = docs.hits.hits.map((h) => h._source as AddressDoc).find((d) => d.street_key === 'schieweg');
    expect(schieweg).toMatchObject({ country_id: stableId('countries', 'NLD'), location: { lon: 4.365563 } });
  });

  it('fails verification when a document vanishes between the load and the count', async () => {
    const p = freshPrefix();
    // Someone deletes one address once the indexes are finished: the loader saw it written, the index lost it.
    const beforeVerify = async (indexes: RunSummary['indexes']) => {
      const found = await client.search({
        index: indexes.addresses,
        query: { term: { street_key: 'rotterdamseweg' } },
      });
      await client.delete({ index: indexes.addresses, id: found.hits.hits[0]?._id as string, refresh: true });
    };
    const error = await index(p, { beforeVerify }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    const summary = (error as IndexingError).summary;
    expect(summary?.aliasesSwapped).toBe(false);
    expect(summary?.levels.addresses).toMatchObject({ indexed: 5, merged: 2, count: 2 });
    expect(summary?.problems).toContain('addresses: _count 2 != indexed 5 - merged 2');
    expect(await generationIndexesOf(client, p)).toEqual([]);
  });

  it('bulk loader: a repeated request answered 409 on its own earlier write is neither a merge nor a failure', async () => {
    const target = `${freshPrefix()}versions`;
    await createGenerationIndex(client, target, 'addresses');
    const doc = (id: string) => ({ id, streetname: 'Mekelweg' });
    // x: lower version first (replaced: "updated"); y: higher first (the lower one is refused with 409).
    const items: LoadItem<object>[] = [
      { id: 'x', doc: doc('x'), origin: 0, position: 1, version: 1 },
      { id: 'x', doc: doc('x'), origin: 0, position: 2, version: 2 },
      { id: 'y', doc: doc('y'), origin: 0, position: 3, version: 5 },
      { id: 'y', doc: doc('y'), origin: 0, position: 4, version: 3 },
    ];
    const load = () => bulkLoad({ client, index: target, items: arrayItems(items), onDrop: () => {} });
    expect(await load()).toMatchObject({ sent: 4, failed: 0, superseded: 2 });
    // The same request again, as after a timeout Elasticsearch had already applied: x v2 and y v5 find themselves.
    expect(await load()).toMatchObject({ sent: 4, failed: 0, superseded: 2 });
    await client.indices.refresh({ index: target });
    expect((await client.count({ index: target })).count).toBe(2);
  });
});

describe('pruning', () => {
  it('keeps the generation live before the run and its predecessor (--keep 1): rollback lands on them', async () => {
    const p = freshPrefix();
    const before = await index(p);
    const good = await index(p);
    const bad = await index(p);
    expect(await rollback(client, p)).toEqual({ from: bad.generation, to: good.generation });
    const next = await index(p, { keep: 1 });
    expect(next.previousGeneration).toBe(good.generation);
    // The generation rolled away from is neither live before the run nor its predecessor: it goes.
    expect(next.pruned).toEqual([bad.generation]);
    expect((await listGenerations(client, p)).map((g) => [g.generation, g.live, g.complete])).toEqual([
      [next.generation, true, true],
      [good.generation, false, true],
      [before.generation, false, true],
    ]);
    expect(await rollback(client, p)).toEqual({ from: next.generation, to: good.generation });
    expect(await rollback(client, p)).toEqual({ from: good.generation, to: before.generation });
    // Every alias moved, in the one _aliases call: each names exactly the target generation's index.
    for (const kind of INDEX_KINDS) {
      const res = await client.indices.getAlias({ name: aliasName(p, kind) });
      expect(Object.keys(res)).toEqual([`${aliasName(p, kind)}-${before.generation}`]);
    }
    await expect(rollback(client, p)).rejects.toThrow(/no complete generation older/);
    expect(await lockDocument(p)).toBeUndefined();
  }, 180_000);

  it('with the default --keep 2, a rollback after rollback-and-reindex lands on the known-good generation', async () => {
    const p = freshPrefix();
    const good = await index(p);
    const bad = await index(p);
    await rollback(client, p);
    const next = await index(p);
    expect(next.pruned).toEqual([bad.generation]);
    expect(await rollback(client, p)).toEqual({ from: next.generation, to: good.generation });
  }, 120_000);
});

describe('run lock', () => {
  it('a second run on the prefix fails at once, naming the first, which succeeds', async () => {
    const p = freshPrefix();
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const log = {
      info: (obj: object | string, msg?: string) => {
        if (msg === 'indexing started') firstStarted();
      },
      warn: () => {},
      error: () => {},
    };
    let firstDone = false;
    const first = index(p, { log }).finally(() => (firstDone = true));
    await started;
    const second = await index(p).catch((e: unknown) => e);
    const firstFinishedBeforeSecondFailed = firstDone;
    const summary = await first;
    expect(firstFinishedBeforeSecondFailed).toBe(false);
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toMatch(/locked by another indexer run/);
    expect((second as Error).message).toContain(`generation ${summary.generation}`);
    expect((second as Error).message).toContain(`pid ${process.pid}`);
    expect(summary.ok).toBe(true);
    expect((await listGenerations(client, p)).map((g) => g.generation)).toEqual([summary.generation]);
    expect(await lockDocument(p)).toBeUndefined();
  });

  it('a live lease is not taken over: the run (and the CLI, exit 1) fails creating nothing', async () => {
    const p = freshPrefix();
    const expires = new Date(Date.now() + 10 * 60_000);
    await writeForeignLock(p, expires);
    const error = await index(p).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/locked by another indexer run.*host other-host, pid 4242/);
    expect((error as Error).message).toContain(expires.toISOString());
    expect(await generationIndexesOf(client, p)).toEqual([]);
    await expect(rollback(client, p)).rejects.toThrow(/locked by another indexer run/);

    const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', '--manifest', FIXTURE, '--prefix', p], {
      env: { ...process.env, ELASTICSEARCH_URL: testElasticsearchUrl(), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/locked by another indexer run.*pid 4242.*lease expires at/);
    expect(await generationIndexesOf(client, p)).toEqual([]);
    expect((await lockDocument(p))?.holder.pid).toBe(4242);
  });

  it('an expired lease is taken over, and the lock is released after the run', async () => {
    const p = freshPrefix();
    await writeForeignLock(p, new Date(Date.now() - 1_000));
    const summary = await index(p);
    expect(summary.ok).toBe(true);
    expect(await lockDocument(p)).toBeUndefined();
  });

  it('is renewed while the run is alive: once the first lease would have run out, it is still held', async () => {
    const p = freshPrefix();
    // Generous against a loaded CI machine: the lock is lost only if renewals stall for a whole lease (4 s).
    const lease = { leaseMs: 4_000, renewEveryMs: 400 };
    let other: unknown;
    const beforeVerify = async () => {
      // Well past the first lease: without renewals another run would take the lock over here.
      await new Promise((r) => setTimeout(r, 2 * lease.leaseMs));
      other = await acquireRunLock(client, p, { operation: 'index', generation: '20300101000000003' }).catch(
        (e: unknown) => e,
      );
    };
    const summary = await index(p, { lease, beforeVerify });
    expect(other).toBeInstanceOf(RunLockedError);
    expect((other as Error).message).toContain(`generation ${summary.generation}`);
    expect(summary.ok).toBe(true);
  });

  it('is released after a failed run', async () => {
    const p = freshPrefix();
    const error = await index(p, { maxRejectRatio: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    expect(await lockDocument(p)).toBeUndefined();
    expect((await index(p)).ok).toBe(true);
  });

  it('of two runs taking over one expired lease at once, exactly one wins', async () => {
    const p = freshPrefix();
    await writeForeignLock(p, new Date(Date.now() - 1_000));
    const takers = await Promise.allSettled(
      ['20300101000000001', '20300101000000002'].map((generation) =>
        acquireRunLock(client, p, { operation: 'index', generation }),
      ),
    );
    const won = takers.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
    const lost = takers.flatMap((t) => (t.status === 'rejected' ? [t.reason as Error] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(RunLockedError);
    expect(lost[0]?.message).toContain(`generation ${won[0]?.holder.generation}`);
    expect((await lockDocument(p))?.holder.generation).toBe(won[0]?.holder.generation);
    await won[0]?.release();
    expect(await lockDocument(p)).toBeUndefined();
  });

  it('a run whose lease was taken over refuses to swap, deletes its indexes and leaves the new holder’s lock', async () => {
    const p = freshPrefix();
    const live = await index(p);
    // As if this run had stalled past its lease and another run had taken the lock over meanwhile.
    const beforeVerify = () => writeForeignLock(p, new Date(Date.now() + 10 * 60_000));
    const error = await index(p, { beforeVerify }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    expect((error as Error).message).toMatch(/lost the indexer lock/);
    expect((error as IndexingError).summary?.aliasesSwapped).toBe(false);
    expect(await liveGeneration(client, p)).toBe(live.generation);
    expect(await generationIndexesOf(client, p)).toEqual(generationIndexNames(p, live.generation));
    expect((await lockDocument(p))?.holder.pid).toBe(4242);
  });
});

describe('orphans of killed runs', () => {
  it('the next run deletes incomplete generations other than its own and reports them', async () => {
    const p = freshPrefix();
    const live = await index(p);
    // What runs killed mid-load leave: all or some kinds of a generation, never marked complete, one of them
    // newer than live (the old prune took that for a run in flight and kept it forever).
    const olderOrphan = '20000101000000000';
    const newerOrphan = '29990101000000000';
    for (const kind of INDEX_KINDS) await createGenerationIndex(client, `${aliasName(p, kind)}-${newerOrphan}`, kind);
    await createGenerationIndex(client, `${aliasName(p, 'areas')}-${olderOrphan}`, 'areas');
    const next = await index(p);
    expect(next.orphansRemoved).toEqual([newerOrphan, olderOrphan]);
    expect(await generationIndexesOf(client, p)).toEqual(
      [...generationIndexNames(p, next.generation), ...generationIndexNames(p, live.generation)].sort(),
    );
  });

  it('a SIGKILLed CLI run leaves its indexes and lease; the next run takes over and removes them', async () => {
    const p = freshPrefix();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'indexer/cli.ts', '--manifest', SAMPLE, '--prefix', p, '--progress', 'json', '--lease', '2'],
      { env: { ...process.env, ELASTICSEARCH_URL: testElasticsearchUrl() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!killed && /"msg":"level loaded"/.test(stderr)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    const signal = await new Promise<string | null>((resolve) => child.on('exit', (_c, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');
    const left = await listGenerations(client, p);
    expect(left.map((g) => [g.complete, g.live])).toEqual([[false, false]]);
    const lock = await lockDocument(p);
    expect(lock?.holder).toMatchObject({ pid: child.pid, generation: left[0]?.generation });
    // The killed run cannot release its lease: wait for it to run out (2 s), then the next run takes over.
    const wait = Date.parse(lock?.expires_at) - Date.now() + 200;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const next = await index(p);
    expect(next.ok).toBe(true);
    expect(next.orphansRemoved).toEqual([left[0]?.generation]);
    expect(await generationIndexesOf(client, p)).toEqual(generationIndexNames(p, next.generation));
    expect(await liveGeneration(client, p)).toBe(next.generation);
  });
});
