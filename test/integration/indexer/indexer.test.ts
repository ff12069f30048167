/**
 * The indexer against a real Elasticsearch: the sample manifest through runIndexing (the CLI's code
 * path), reindexing under a polling reader, rejects, and failed/aborted runs. Every test that writes sets up
 * what it needs under its own prefix and removes it afterwards, so any test passes alone and in any order; the
 * read-only checks share one sample run, made on first use. More failure paths: indexerFailures.test.ts; the
 * atomicity of the alias swap: aliasSwap.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { bulkLoad, type LoadItem } from '../../../indexer/execution/bulkLoader.js';
import { aliasesExist, listGenerations, liveGeneration } from '../../../indexer/generations/generations.js';
import { createGenerationIndex, deleteIndexes } from '../../../indexer/generations/generationIndexes.js';
import { stableId, streetId as stableStreetId } from '../../../indexer/records/ids.js';
import { IndexingAbortedError, IndexingError } from '../../../indexer/execution/errors.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { searchAllPages } from '../../../src/indexes/paging.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { INDEX_KINDS, type IndexKind, type StreetDoc } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import {
  createTestClient,
  deleteIndexesWithPrefix,
  testElasticsearchUrl,
  uniqueIndexPrefix,
} from '../../support/elasticsearch.js';
import { createLiveGeneration, generationIndexesOf } from '../../support/generations.js';
import { generationCounts, type Observation, observeGenerations } from '../../support/pollingReader.js';

const SAMPLE = 'datasets/sample.json';
const BROKEN = 'test/fixtures/indexer-broken/manifest.json';
const REINDEX = 'test/fixtures/indexer-reindex/manifest.json';
/** Older than any generation a run makes now: stands for what a previous run left live. */
const EARLIER = '20200101000000000';

let client: Client;
/** Prefix of the shared sample run: read-only, no test may change it. */
const prefix = uniqueIndexPrefix('indexer');
const tmp = join(tmpdir(), `indexer-test-${process.pid}`);
let sampleRun: Promise<RunSummary> | undefined;

/** The sample indexed once under `prefix`, on first use: only the tests that read it pay for the run. */
function sharedSample(): Promise<RunSummary> {
  sampleRun ??= runIndexing({
    client,
    manifestPath: SAMPLE,
    indexPrefix: prefix,
    progress: 'none',
    rejectsPath: join(tmp, 'sample-rejects.jsonl'),
    handleSignals: false,
  });
  return sampleRun;
}

const ownPrefixes: string[] = [];

/** A prefix of the current test alone, removed after it whatever the test left there. */
function ownPrefix(label: string): string {
  const p = uniqueIndexPrefix(label);
  ownPrefixes.push(p);
  return p;
}

function allIndexesOf(p: string): Promise<string[]> {
  return generationIndexesOf(client, p);
}

/** Every document id of `index`, in order (paged: the addresses outnumber one page). */
async function ids(index: string): Promise<string[]> {
  const out: string[] = [];
  const pages = searchAllPages(client, {
    index,
    query: { match_all: {} },
    sort: [{ id: 'asc' }],
    source: false,
    pageSize: 10_000,
  });
  for await (const hits of pages) out.push(...hits.map((h) => h._id as string));
  return out;
}

async function countWhere(query: object, index = `${prefix}addresses`): Promise<number> {
  return (await client.count({ index, query })).count;
}

/** The first `size` documents of every kind of the global setup's sample, as they are stored. */
async function sampleExcerpt(size: number): Promise<Record<IndexKind, Record<string, unknown>[]>> {
  const out = {} as Record<IndexKind, Record<string, unknown>[]>;
  for (const kind of INDEX_KINDS) {
    const res = await client.search<Record<string, unknown>>({
      index: aliasName(inject('samplePrefix'), kind),
      size,
      sort: [{ id: 'asc' }],
    });
    out[kind] = res.hits.hits.map((h) => h._source as Record<string, unknown>);
  }
  return out;
}

const countsOf = (p: string, generation: string) => generationCounts(client, p, generation);
const observe = (p: string) => observeGenerations(client, p);

beforeAll(() => {
  client = createTestClient();
});

afterEach(async () => {
  for (const p of ownPrefixes.splice(0)) await deleteIndexesWithPrefix(client, p);
});

afterAll(async () => {
  await deleteIndexesWithPrefix(client, prefix);
  rmSync(tmp, { recursive: true, force: true });
  await client.close();
});

describe('indexing the sample manifest', () => {
  it('reports reconciling per-level counts', async () => {
    const first = await sharedSample();
    const l = first.levels;
    expect(first.ok).toBe(true);
    expect(first.problems).toEqual([]);
    // 241 Natural Earth features; Ashmore and Cartier Is. share AUS and merge into Australia.
    expect(l.countries).toMatchObject({ read: 241, indexed: 241, merged: 1, rejected: 0, count: 240 });
    // 12 CBS provinces, Belgium's 10 provinces and the Brussels-Capital Region (Natural Earth).
    expect(l.provinces).toMatchObject({ read: 23, indexed: 23, rejected: 0, count: 23, unassigned: { countries: 0 } });
    // 342 CBS municipalities (GM0998 "Buitenland" is filtered out, not rejected) and 581 Belgian ones.
    expect(l.municipalities).toMatchObject({ read: 923, skipped: 1, indexed: 923, rejected: 0, count: 923 });
    expect(l.municipalities.unassigned).toEqual({ provinces: 0, countries: 0 });
    // Delft and Delfgauw from their polygons; Brussel and Elsene derived from the Brussels addresses.
    expect(l.cities).toMatchObject({ read: 4, indexed: 4, count: 4 });
    expect(l.cities.unassigned).toEqual({ municipalities: 0, provinces: 0, countries: 0 });
    expect(l.suburbs).toMatchObject({ read: 6, indexed: 6, count: 6 });
    expect(l.buildings).toMatchObject({ read: 3478, indexed: 3478, merged: 0, rejected: 0, count: 3478 });
    // 8,917 Delft rows (32 repeats merge) and 6,586 Brussels rows (27 repeats merge).
    expect(l.addresses).toMatchObject({ read: 15503, indexed: 15503, rejected: 0, merged: 59, count: 15444 });
    // Brussels has no buildings or suburbs in the sample.
    expect(l.addresses.unassigned).toEqual({
      buildings: 7 + 6586,
      suburbs: 6586,
      cities: 0,
      municipalities: 0,
      provinces: 0,
      countries: 0,
    });
    // One street document per street key and city key; every address read counted in one of them.
    expect(first.streets).toMatchObject({ indexed: first.streets.built, count: first.streets.built });
    expect(first.streets.built).toBeGreaterThan(100);
    expect(first.streets).toMatchObject({ addresses: 15503, addressCountSum: 15503 });
    expect(first.rejects).toEqual({ path: null, count: 0, byReason: {} });
    expect(first.aliasesSwapped).toBe(true);
    expect(first.previousGeneration).toBeNull();
    expect(await aliasesExist(client, prefix)).toBe(true);
    expect(await aliasesExist(client, `${prefix}none-`)).toBe(false);
  });

  it('builds the streets index: one document per street and city, sized, placed and joined', async () => {
    const first = await sharedSample();
    const streets = await client.search<StreetDoc>({
      index: `${prefix}streets`,
      size: 10_000,
      query: { match_all: {} },
    });
    const docs = streets.hits.hits.map((h) => h._source as StreetDoc);
    expect(docs).toHaveLength(first.streets.built);
    const keys = new Set(docs.map((d) => `${d.street_key}|${d.city_key}`));
    expect(keys.size).toBe(docs.length);
    // The distinct street+city pairs of the addresses index, exactly.
    const pairs = await client.search({
      index: `${prefix}addresses`,
      size: 0,
      aggs: {
        pairs: {
          composite: {
            size: 10_000,
            sources: [{ s: { terms: { field: 'street_key' } } }, { c: { terms: { field: 'city_key' } } }],
          },
        },
      },
    });
    const buckets = (pairs.aggregations?.pairs as { buckets: { key: { s: string; c: string } }[] }).buckets;
    expect(new Set(buckets.map((b) => `${b.key.s}|${b.key.c}`))).toEqual(keys);
    const waals = docs.find((d) => d.street_key === 'vanderwaalsweg');
    expect(waals).toMatchObject({
      id: stableStreetId('vanderwaalsweg', 'delft'),
      streetname: 'Van der Waalsweg',
      city: 'Delft',
      street_words: ['van der waalsweg', 'der waalsweg', 'waalsweg'],
      municipality_id: stableId('municipalities', 'GM0503'),
      city_id: stableId('cities', '2138'),
    });
    expect(waals?.address_count).toBe(
      await countWhere({
        bool: { filter: [{ term: { street_key: 'vanderwaalsweg' } }, { term: { city_key: 'delft' } }] },
      }),
    );
    expect(waals?.points).toContainEqual(waals?.location);
  });

  it('restores the mapping file settings after loading', async () => {
    const first = await sharedSample();
    const settings = await client.indices.getSettings({ index: first.indexes.addresses, flat_settings: true });
    const s = settings[first.indexes.addresses]?.settings as Record<string, string>;
    expect(s['index.refresh_interval']).toBe('1s');
    expect(s['index.auto_expand_replicas']).toBe('0-1');
    const segments = await client.indices.segments({ index: first.indexes.addresses });
    const shards = Object.values(segments.indices[first.indexes.addresses]?.shards ?? {})[0];
    const shard = Array.isArray(shards) ? shards[0] : shards;
    expect(Object.keys(shard?.segments ?? {})).toHaveLength(1);
  });

  it('joins every Delft address to its building, suburb, city, GM0503, Zuid-Holland and NL', async () => {
    const first = await sharedSample();
    const gm0503 = stableId('municipalities', 'GM0503');
    const pv28 = stableId('provinces', 'PV28');
    const nl = stableId('countries', 'NLD');
    const delft = stableId('cities', '2138');
    const all = await countWhere({ term: { country_id: nl } });
    expect(all).toBe(8885);
    expect(await countWhere({ term: { municipality_id: gm0503 } })).toBe(all);
    expect(await countWhere({ term: { province_id: pv28 } })).toBe(all);
    expect(await countWhere({ term: { country_id: nl } })).toBe(all);
    expect(await countWhere({ term: { city_id: delft } })).toBe(all);
    expect(await countWhere({ bool: { filter: [{ term: { country_id: nl } }, { term: { suburb_id: '' } }] } })).toBe(0);
    // SOURCES.md: 8,910 of 8,917 rows lie inside a footprint (summary: unassigned buildings 7). The 7
    // are 5 distinct addresses; 4 of them also have a point inside their building and the merge keeps
    // the better-joined record, so only Leeuwenstein 7 is left without a building.
    expect(first.levels.addresses.unassigned.buildings).toBe(7 + 6586);
    expect(await countWhere({ bool: { filter: [{ term: { country_id: nl } }, { term: { building_id: '' } }] } })).toBe(
      1,
    );
    expect(
      await countWhere({ bool: { filter: [{ term: { building_id: '' } }, { term: { street_key: 'leeuwenstein' } }] } }),
    ).toBe(1);

    const areas = await client.search<{
      name: string;
      local_identifier: string;
      parent_id: string;
      province_id: string;
    }>({
      index: `${prefix}areas`,
      query: { ids: { values: [gm0503, pv28, nl] } },
    });
    const byId = new Map(areas.hits.hits.map((h) => [h._id, h._source]));
    expect(byId.get(gm0503)).toMatchObject({
      name: 'Delft',
      local_identifier: 'GM0503',
      province_id: pv28,
      parent_id: pv28,
    });
    expect(byId.get(pv28)).toMatchObject({ name: 'Zuid-Holland', local_identifier: 'PV28', parent_id: nl });
    expect(byId.get(nl)).toMatchObject({ name: 'Netherlands', local_identifier: 'NL', parent_id: '' });
    const suburbs = await client.search<{ local_identifier: string; city_id: string }>({
      index: `${prefix}areas`,
      query: { term: { level: 'suburb' } },
      size: 20,
    });
    expect(suburbs.hits.hits.map((h) => h._source?.local_identifier).sort()).toEqual([
      'WK050311',
      'WK050313',
      'WK050324',
      'WK050327',
      'WK050328',
      'WK050329',
    ]);
    expect(suburbs.hits.hits.every((h) => h._source?.city_id === delft)).toBe(true);
  });

  it('a second run of the same data gives every document the same id', async () => {
    await sharedSample();
    for (const kind of INDEX_KINDS) {
      expect(await ids(aliasName(prefix, kind))).toEqual(await ids(aliasName(inject('samplePrefix'), kind)));
    }
  });

  it('reindexes under a polling reader: every answer whole and from one generation, the swap seen once', async () => {
    const p = ownPrefix('reindex');
    // What a previous run left live: a few documents of every kind, each answer's generation told by index name.
    await createLiveGeneration(client, p, EARLIER, await sampleExcerpt(5));
    const seen: Observation[] = [];
    let running = true;
    const reader = (async () => {
      // Every 10 ms for the whole run, and once more after it: the last answer comes after the swap.
      for (let last = false; !last;) {
        last = !running;
        seen.push(await observe(p));
        if (!last) await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let second: RunSummary;
    try {
      // A small manifest with documents of every kind: the run's every step up to the swap and the prune, in
      // seconds (the sample's data adds nothing here; its ids are compared across two runs above).
      second = await runIndexing({
        client,
        manifestPath: REINDEX,
        indexPrefix: p,
        progress: 'none',
        rejectsPath: join(tmp, 'reindex-rejects.jsonl'),
        handleSignals: false,
      });
    } finally {
      running = false;
      await reader;
    }
    // Each generation in full, counted now that nothing changes: every answer must hold all of its one generation.
    const whole: Record<string, Record<IndexKind, number>> = {
      [EARLIER]: await countsOf(p, EARLIER),
      [second.generation]: await countsOf(p, second.generation),
    };
    for (const counts of Object.values(whole)) expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    const failures = seen.flatMap(({ generations, perKind, error }) => {
      if (error) return [error];
      const [only] = generations;
      if (generations.length !== 1 || !only) return [`generations ${generations.join(',') || 'none'}`];
      return INDEX_KINDS.filter((kind) => perKind[kind] !== whole[only]?.[kind]).map(
        (kind) => `${only} ${kind} count ${perKind[kind]}`,
      );
    });
    expect(failures).toEqual([]);
    // The reader was answered from the old generation, then from the new one, and never from the old again.
    const order = seen.map((o) => o.generations[0]).filter((g, i, all) => g !== all[i - 1]);
    expect(order).toEqual([EARLIER, second.generation]);
    expect(second.previousGeneration).toBe(EARLIER);
    expect(await liveGeneration(client, p)).toBe(second.generation);
    // The previous generation is kept for rollback.
    const generations = await listGenerations(client, p);
    expect(generations.map((g) => [g.generation, g.live, g.complete])).toEqual([
      [second.generation, true, true],
      [EARLIER, false, true],
    ]);
    expect(generations[1]?.indexes.addresses).toMatchObject({ documents: 5, complete: true });
  });

  it('requires every kind: a deployment without the streets alias counts as not indexed', async () => {
    const other = ownPrefix('partial');
    const generation = '20200101000000000';
    const created: string[] = [];
    try {
      for (const kind of INDEX_KINDS.filter((k) => k !== 'streets')) {
        const index = `${aliasName(other, kind)}-${generation}`;
        await createGenerationIndex(client, index, kind);
        created.push(index);
        await client.indices.updateAliases({ actions: [{ add: { index, alias: aliasName(other, kind) } }] });
      }
      expect(await aliasesExist(client, other)).toBe(false);
      expect(await liveGeneration(client, other)).toBe(generation);
      const [g] = await listGenerations(client, other);
      expect(g).toMatchObject({ generation, complete: false, live: true });
      expect(g?.indexes.streets).toBeUndefined();
    } finally {
      await deleteIndexes(client, created);
    }
  });

  it('an aborted run deletes its own indexes and leaves the aliases alone', async () => {
    const p = ownPrefix('aborted');
    await createLiveGeneration(client, p, EARLIER);
    const indexesBefore = await allIndexesOf(p);
    const controller = new AbortController();
    // Abort deterministically in the middle: once buildings are in, before addresses.
    const log = {
      info: (obj: object | string) => {
        if (typeof obj === 'object' && (obj as { dataset_level?: string }).dataset_level === 'buildings') {
          controller.abort(new IndexingAbortedError('SIGINT'));
        }
      },
      warn: () => {},
      error: () => {},
    };
    const error = await runIndexing({
      client,
      manifestPath: SAMPLE,
      indexPrefix: p,
      progress: 'none',
      rejectsPath: join(tmp, 'aborted.jsonl'),
      handleSignals: false,
      signal: controller.signal,
      log,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingAbortedError);
    expect((error as IndexingError).summary?.aliasesSwapped).toBe(false);
    expect(await liveGeneration(client, p)).toBe(EARLIER);
    expect(await allIndexesOf(p)).toEqual(indexesBefore);
  });

  it('the CLI catches SIGINT: exit 130, its indexes deleted, aliases untouched', async () => {
    const p = ownPrefix('sigint');
    await createLiveGeneration(client, p, EARLIER);
    const indexesBefore = await allIndexesOf(p);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'indexer/cli.ts',
        '--manifest',
        SAMPLE,
        '--prefix',
        p,
        '--progress',
        'json',
        '--rejects',
        join(tmp, 'cli.jsonl'),
      ],
      { env: { ...process.env, ELASTICSEARCH_URL: testElasticsearchUrl() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && /"dataset_level":"buildings".*"msg":"level loaded"/.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(sent).toBe(true);
    expect(code).toBe(130);
    expect(await liveGeneration(client, p)).toBe(EARLIER);
    expect(await allIndexesOf(p)).toEqual(indexesBefore);
  });
});

describe('--if-empty', () => {
  it('indexes nothing when the aliases exist (the Docker Compose sample step on a later start)', async () => {
    const p = ownPrefix('if-empty');
    await createLiveGeneration(client, p, EARLIER);
    const before = await listGenerations(client, p);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'indexer/cli.ts', '--manifest', SAMPLE, '--prefix', p, '--if-empty'],
      { env: { ...process.env, ELASTICSEARCH_URL: testElasticsearchUrl() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ prefix: p, skipped: 'aliases exist' });
    expect(await listGenerations(client, p)).toEqual(before);
  });
});

describe('broken input', () => {
  const rejectsPath = join(tmp, 'broken-rejects.jsonl');

  it('writes each rejected record with its reason and line, and the counts reconcile', async () => {
    const summary = await runIndexing({
      client,
      manifestPath: BROKEN,
      indexPrefix: ownPrefix('broken'),
      progress: 'none',
      rejectsPath,
      maxRejectRatio: 1,
      handleSignals: false,
    });
    expect(summary.ok).toBe(true);
    expect(summary.levels.countries).toMatchObject({ read: 6, indexed: 2, rejected: 4, count: 2 });
    expect(summary.levels.countries.rejectReasons).toEqual({ invalid_geometry: 4 });
    expect(summary.levels.addresses).toMatchObject({ read: 10, indexed: 4, rejected: 6, merged: 1, count: 3 });
    expect(summary.levels.addresses.rejectReasons).toEqual({
      missing_coordinate: 1,
      coordinate_out_of_range: 2,
      unparsable_house_number: 1,
      missing_street: 1,
      malformed_record: 1,
    });
    expect(summary.rejects.path).toBe(rejectsPath);
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
            record: unknown;
          },
      );
    expect(lines).toHaveLength(10);
    const addressRejects = lines
      .filter((l) => l.level === 'addresses')
      .map((l) => [l.line, l.reason])
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(addressRejects).toEqual([
      [5, 'missing_coordinate'],
      [6, 'coordinate_out_of_range'],
      [7, 'unparsable_house_number'],
      [8, 'missing_street'],
      [9, 'malformed_record'],
      [10, 'coordinate_out_of_range'],
    ]);
    const countryRejects = lines.filter((l) => l.level === 'countries');
    expect(countryRejects.map((l) => [l.line, l.reason])).toEqual([
      [2, 'invalid_geometry'],
      [3, 'invalid_geometry'],
      [4, 'invalid_geometry'],
      [5, 'invalid_geometry'],
    ]);
    expect(countryRejects.map((l) => l.detail)).toEqual([
      expect.stringMatching(/not closed/),
      expect.stringMatching(/at least 4/),
      expect.stringMatching(/out of range/),
      expect.stringMatching(/empty/),
    ]);
    expect(lines.every((l) => l.source.endsWith('.csv') || l.source.endsWith('.geojson'))).toBe(true);
    expect(lines.find((l) => l.line === 7 && l.level === 'addresses')?.record).toMatchObject({ id: 'bad-number' });
    expect(lines.find((l) => l.line === 9 && l.level === 'addresses')?.record).toEqual([
      'bad-csv',
      'Schieweg',
      '17',
      '',
      '',
      '2627AN',
      'Delft',
      '4.365563',
      '51.9980129',
      'extra',
      'columns',
    ]);
  });

  it('fails above --max-reject-ratio without touching the aliases or leaving indexes behind', async () => {
    const p = ownPrefix('broken-ratio');
    await createLiveGeneration(client, p, EARLIER);
    const indexesBefore = await allIndexesOf(p);
    const error = await runIndexing({
      client,
      manifestPath: BROKEN,
      indexPrefix: p,
      progress: 'none',
      rejectsPath: join(tmp, 'broken-rejects-2.jsonl'),
      handleSignals: false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    const summary = (error as IndexingError).summary;
    expect(summary?.ok).toBe(false);
    expect(summary?.aliasesSwapped).toBe(false);
    expect(summary?.problems.join('\n')).toMatch(/addresses: 6 of 10 records rejected/);
    expect(await liveGeneration(client, p)).toBe(EARLIER);
    expect(await allIndexesOf(p)).toEqual(indexesBefore);
    expect(existsSync(join(tmp, 'broken-rejects-2.jsonl'))).toBe(true);
  });

  it('turns documents Elasticsearch refuses into rejects (mapping errors via onDrop)', async () => {
    const index = `${ownPrefix('mapping-check')}addresses-check`;
    await createGenerationIndex(client, index, 'addresses');
    try {
      const drops: { id: string; status: number; position: number | undefined; error: unknown }[] = [];
      async function* items(): AsyncGenerator<LoadItem<Record<string, unknown>>> {
        yield { id: 'good', doc: { id: 'good', streetname: 'Mekelweg' }, origin: 0, position: 2 };
        yield { id: 'bad', doc: { id: 'bad', no_such_field: 'x' }, origin: 0, position: 3 };
        yield { id: 'bad2', doc: { id: 'bad2', house_number: 'not a number' }, origin: 0, position: 4 };
      }
      const result = await bulkLoad({ client, index, items: items(), onDrop: (d) => drops.push(d) });
      expect(result).toMatchObject({ sent: 3, failed: 2 });
      expect(drops.map((d) => [d.id, d.status, d.position])).toEqual([
        ['bad', 400, 3],
        ['bad2', 400, 4],
      ]);
      expect(JSON.stringify(drops[0]?.error)).toMatch(/strict_dynamic_mapping_exception/);
      expect(JSON.stringify(drops[1]?.error)).toMatch(/document_parsing_exception|number_format/);
    } finally {
      await deleteIndexes(client, [index]);
    }
  });
});
