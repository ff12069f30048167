import { errors } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  isRetryableRequestError,
  updatedItems,
  withRequestRetries,
} from '../../../../indexer/execution/bulkLoader.js';
import { RecentOrigins } from '../../../../indexer/execution/recentOrigins.js';
import { parseCli, tuningFromConfig, UsageError } from '../../../../indexer/cli.js';
import { LEVELS, type LevelName } from '../../../../indexer/base/levels.js';
import { estimate } from '../../../../indexer/execution/progress.js';
import { boundedRecord } from '../../../../indexer/execution/rejects.js';
import { emptyLevel, type LevelSummary, verifyLevels } from '../../../../indexer/execution/summary.js';
import { loadIndexerConfig } from '../../../../core/config/indexer.js';
import { ConfigError } from '../../../../core/config/rules.js';

function responseError(statusCode: number) {
  return new errors.ResponseError({
    body: { error: 'x' },
    statusCode,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}

describe('bulk retries', () => {
  it('retries overload and connection failures only', () => {
    expect(isRetryableRequestError(responseError(429))).toBe(true);
    expect(isRetryableRequestError(responseError(503))).toBe(true);
    expect(isRetryableRequestError(responseError(400))).toBe(false);
    expect(isRetryableRequestError(new errors.ConnectionError('reset'))).toBe(true);
    expect(isRetryableRequestError(new Error('bug'))).toBe(false);
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(0, 500, 30_000, () => 0)).toBe(250);
    expect(backoffMs(3, 500, 30_000, () => 1)).toBe(4000);
    expect(backoffMs(20, 500, 30_000, () => 1)).toBe(30_000);
  });

  it('retries a 429 then succeeds; gives up after the limit; passes other errors through', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    let calls = 0;
    const flaky = withRequestRetries(
      async () => {
        calls++;
        if (calls < 3) throw responseError(429);
        return 'ok';
      },
      5,
      sleep,
    );
    await expect(flaky({}, {})).resolves.toBe('ok');
    expect(waits).toHaveLength(2);
    const down = withRequestRetries(async () => Promise.reject(responseError(503)), 2, sleep);
    await expect(down({}, {})).rejects.toThrow();
    let badCalls = 0;
    const bad = withRequestRetries(
      async () => {
        badCalls++;
        throw responseError(400);
      },
      5,
      sleep,
    );
    await expect(bad({}, {})).rejects.toThrow();
    expect(badCalls).toBe(1);
  });

  it('remembers the origins of the last `capacity` documents, whenever it is asked', () => {
    const o = new RecentOrigins(2);
    o.remember('a', 0, 10);
    o.remember('b', 1, 20);
    expect(o.lookup('a')).toEqual([0, 10]);
    o.remember('c', 2, 1_000_000);
    expect(o.lookup('a')).toBeUndefined();
    expect(o.lookup('b')).toEqual([1, 20]);
    expect(o.lookup('c')).toEqual([2, 1_000_000]);
    o.remember('d', 3, 30);
    o.remember('e', 4, 40);
    expect(o.lookup('b')).toBeUndefined();
    expect(o.lookup('c')).toBeUndefined();
    expect(o.lookup('d')).toEqual([3, 30]);
    expect(o.lookup('e')).toEqual([4, 40]);
    expect(o.lookup('never')).toBeUndefined();
  });

  it('counts the items of a bulk answer that replaced a document (result "updated"), not the created or failed ones', () => {
    const body = {
      errors: true,
      items: [
        { index: { status: 201, result: 'created' } },
        { index: { status: 200, result: 'updated' } },
        { index: { status: 409, error: { type: 'version_conflict_engine_exception' } } },
        { index: { status: 200, result: 'updated' } },
      ],
    };
    expect(updatedItems({ body, statusCode: 200 })).toBe(2);
    expect(updatedItems({ body: { errors: false } })).toBe(0);
    expect(updatedItems(undefined)).toBe(0);
  });

  it('answers for the newest document of an id sent twice, and after many documents with no lookup', () => {
    const o = new RecentOrigins(3);
    o.remember('x', 0, 1);
    o.remember('x', 1, 2);
    expect(o.lookup('x')).toEqual([1, 2]);
    for (let i = 0; i < 1000; i++) o.remember(`id${i}`, 5, i + 1);
    expect(o.lookup('x')).toBeUndefined();
    expect(o.lookup('id996')).toBeUndefined();
    expect(o.lookup('id997')).toEqual([5, 998]);
    expect(o.lookup('id999')).toEqual([5, 1000]);
  });
});

function level(over: Partial<LevelSummary> = {}): LevelSummary {
  return { ...emptyLevel(), ...over };
}

function levels(over: Partial<Record<LevelName, LevelSummary>>) {
  return Object.fromEntries(LEVELS.map((l) => [l, over[l] ?? level()])) as Record<LevelName, LevelSummary>;
}

describe('verifyLevels', () => {
  it('passes reconciling counts', () => {
    expect(
      verifyLevels(levels({ addresses: level({ read: 100, indexed: 99, rejected: 1, merged: 4, count: 95 }) }), 0.01),
    ).toEqual([]);
  });

  it('flags counts that do not reconcile and too many rejects', () => {
    const problems = verifyLevels(
      levels({
        countries: level({ read: 10, indexed: 8, rejected: 0, count: 8 }),
        buildings: level({ read: 10, indexed: 10, count: 9 }),
        addresses: level({ read: 100, indexed: 98, rejected: 2, count: 98 }),
      }),
      0.01,
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/countries: read 10 != indexed 8 \+ rejected 0/);
    expect(problems[1]).toMatch(/buildings: _count 9/);
    expect(problems[2]).toMatch(/addresses: 2 of 100 records rejected \(2.00%\)/);
  });
});

describe('parseCli', () => {
  const defaults = loadIndexerConfig({});

  it('parses index, rollback and status with environment defaults', () => {
    expect(parseCli(['--manifest', 'datasets/sample.json'], loadIndexerConfig({ INDEX_PREFIX: 'p-' }))).toEqual({
      command: 'index',
      manifest: 'datasets/sample.json',
      prefix: 'p-',
      keep: 2,
      maxRejectRatio: 0.01,
      progress: 'auto',
      ifEmpty: false,
    });
    expect(parseCli(['--manifest', 'm.json', '--if-empty'], defaults).ifEmpty).toBe(true);
    expect(
      parseCli(
        [
          '--manifest',
          'm.json',
          '--prefix',
          'x-',
          '--keep',
          '3',
          '--max-reject-ratio',
          '0.05',
          '--rejects',
          'r.jsonl',
          '--progress',
          'json',
        ],
        defaults,
      ),
    ).toMatchObject({ prefix: 'x-', keep: 3, maxRejectRatio: 0.05, rejects: 'r.jsonl', progress: 'json' });
    expect(parseCli(['rollback'], defaults).command).toBe('rollback');
    expect(parseCli(['status', '--prefix', 'a-'], defaults)).toMatchObject({ command: 'status', prefix: 'a-' });
  });

  it('parses update with its change limit and dry run, which no other command takes', () => {
    expect(parseCli(['update', '--manifest', 'm.json'], defaults)).toMatchObject({
      command: 'update',
      manifest: 'm.json',
      dryRun: false,
      maxChangeRatio: 0.1,
    });
    expect(
      parseCli(['update', '--manifest', 'm.json', '--dry-run', '--max-change-ratio', '0.5'], defaults),
    ).toMatchObject({ dryRun: true, maxChangeRatio: 0.5 });
    expect(() => parseCli(['update'], defaults)).toThrow(/--manifest is required/);
    expect(() => parseCli(['update', '--manifest', 'm', '--max-change-ratio', '2'], defaults)).toThrow(/ratio/);
    expect(() => parseCli(['--manifest', 'm', '--dry-run'], defaults)).toThrow(/belong to update/);
  });

  it('refuses bad arguments', () => {
    expect(() => parseCli([], defaults)).toThrow(/--manifest is required/);
    expect(() => parseCli(['frobnicate'], defaults)).toThrow(UsageError);
    expect(() => parseCli(['--manifest', 'm', '--keep', '0'], defaults)).toThrow(/--keep/);
    expect(() => parseCli(['--manifest', 'm', '--max-reject-ratio', '2'], defaults)).toThrow(/ratio/);
    expect(() => parseCli(['--manifest', 'm', '--prefix', 'UPPER'], defaults)).toThrow(/prefix/);
    expect(() => parseCli(['--manifest', 'm', '--bogus'], defaults)).toThrow();
  });

  it('maps the bulk tuning from the environment; refuses invalid values instead of ignoring them', () => {
    expect(tuningFromConfig(defaults)).toEqual({});
    expect(
      tuningFromConfig(loadIndexerConfig({ INDEXER_BULK_CONCURRENCY: '4', INDEXER_BULK_FLUSH_BYTES: '1000000' })),
    ).toEqual({ concurrency: 4, flushBytes: 1_000_000 });
    expect(() => loadIndexerConfig({ INDEXER_BULK_CONCURRENCY: 'many' })).toThrow(ConfigError);
    expect(() => loadIndexerConfig({ INDEXER_BULK_FLUSH_BYTES: '0' })).toThrow(ConfigError);
    expect(() => loadIndexerConfig({ INDEX_PREFIX: 'UPPER' })).toThrow(ConfigError);
  });
});

describe('progress estimate and reject lines', () => {
  it('estimates rate and ETA from bytes read', () => {
    const e = estimate(
      { level: 'addresses', file: 'f', read: 1000, rejected: 0, bytes: { bytesRead: 25, totalBytes: 100 } },
      0,
      10_000,
    );
    expect(e.rate).toBe(100);
    expect(e.fraction).toBe(0.25);
    expect(e.etaSeconds).toBe(30);
    expect(estimate({ level: 'x', file: 'f', read: 1, rejected: 0, bytes: undefined }, 0, 1000).etaSeconds).toBeNull();
  });

  it('truncates huge records in reject lines', () => {
    expect(boundedRecord({ a: 1 })).toEqual({ a: 1 });
    const huge = boundedRecord({ coordinates: 'x'.repeat(50_000) }) as { truncated: boolean; json: string };
    expect(huge.truncated).toBe(true);
    expect(huge.json.length).toBe(20_000);
  });
});
