/**
 * The alias swap is atomic: a reader never gets an answer mixing two generations, nor one missing a kind. Two
 * generations with different documents (each tagged with its generation), a reader polling hard with ONE search
 * over all four aliases (so one answer reflects one moment of the cluster state), and many swaps with the product's
 * `swapAliases`. The control swaps the same aliases one kind at a time, as a broken indexer would, and the same reader
 * must catch it: that is what shows the reader can see the defect at all.
 */
import type { Client } from '@elastic/elasticsearch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { liveGeneration, liveIndexes, swapAliases } from '../../../indexer/generations/generations.js';
import { generationOf } from '../../../indexer/generations/generationIndexes.js';
import { INDEX_KINDS, type IndexKind } from '../../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../../core/elasticsearch/indexNames.js';
import { createTestClient, deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../support/elasticsearch.js';
import { createCompleteGeneration } from '../../support/generations.js';

const OLD = '20200101000000000';
const NEW = '20200202000000000';
/** Different data per generation: a different number of documents per kind, each id naming its generation. */
const DOCS_PER_KIND: Record<string, number> = { [OLD]: 2, [NEW]: 3 };
const READERS = 4;

let client: Client;
const prefix = uniqueIndexPrefix('alias-swap');

function documentsOf(generation: string): Partial<Record<IndexKind, Record<string, unknown>[]>> {
  const count = DOCS_PER_KIND[generation] ?? 0;
  const documents: Partial<Record<IndexKind, Record<string, unknown>[]>> = {};
  for (const kind of INDEX_KINDS) {
    documents[kind] = Array.from({ length: count }, (_, i) => ({ id: `${generation}-${kind}-${i}` }));
  }
  return documents;
}

/** What one answer held: the generations its hits and per-index counts came from, and whether it was whole. */
interface Observation {
  generations: string[];
  whole: boolean;
}

/** One `_search` over the four aliases: hits tagged with their generation, document counts per concrete index. */
async function observe(): Promise<Observation> {
  const res = await client.search<{ id: string }>({
    index: INDEX_KINDS.map((k) => aliasName(prefix, k)).join(','),
    size: 50,
    _source: ['id'],
    aggs: { by_index: { terms: { field: '_index', size: 20 } } },
  });
  const generations = new Set<string>();
  const countByKind = new Map<IndexKind, number>();
  const buckets = (res.aggregations?.by_index as { buckets: { key: string; doc_count: number }[] }).buckets;
  for (const bucket of buckets) {
    for (const kind of INDEX_KINDS) {
      const generation = generationOf(prefix, kind, bucket.key);
      if (!generation) continue;
      generations.add(generation);
      countByKind.set(kind, (countByKind.get(kind) ?? 0) + bucket.doc_count);
    }
  }
  for (const hit of res.hits.hits) generations.add(String(hit._source?.id).split('-')[0] as string);
  const [only] = generations;
  const expected = generations.size === 1 && only ? (DOCS_PER_KIND[only] ?? -1) : -1;
  const whole = INDEX_KINDS.every((kind) => countByKind.get(kind) === expected);
  return { generations: [...generations].sort(), whole };
}

interface ReaderReport {
  polls: number;
  /** Answers holding documents of more than one generation. */
  mixed: string[][];
  /** Answers of one generation with a kind missing or short. */
  partial: number;
  errors: string[];
  seen: Set<string>;
}

/** Readers polling as fast as the node answers until `work` is done. */
async function whileReading(work: (report: ReaderReport) => Promise<void>): Promise<ReaderReport> {
  const report: ReaderReport = { polls: 0, mixed: [], partial: 0, errors: [], seen: new Set() };
  let reading = true;
  const readers = Array.from({ length: READERS }, async () => {
    while (reading) {
      try {
        const seen = await observe();
        if (seen.generations.length > 1) report.mixed.push(seen.generations);
        else if (!seen.whole) report.partial++;
        for (const g of seen.generations) report.seen.add(g);
      } catch (error) {
        report.errors.push((error as Error).message);
      }
      report.polls++;
    }
  });
  try {
    await work(report);
  } finally {
    reading = false;
    await Promise.all(readers);
  }
  return report;
}

/** The defect under control: each alias moved by its own `_aliases` request, so readers can fall between them. */
async function swapOneAliasAtATime(generation: string): Promise<void> {
  const live = await liveIndexes(client, prefix);
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    const target = generationIndexName(prefix, kind, generation);
    await client.indices.updateAliases({
      actions: [
        ...(live[kind] ?? []).filter((index) => index !== target).map((index) => ({ remove: { index, alias } })),
        { add: { index: target, alias } },
      ],
    });
  }
}

beforeAll(async () => {
  client = createTestClient();
  await createCompleteGeneration(client, prefix, OLD, documentsOf(OLD));
  await createCompleteGeneration(client, prefix, NEW, documentsOf(NEW));
});

afterEach(async () => {
  // Each test starts from the old generation live, whatever the previous one left.
  await swapAliases(client, prefix, OLD);
});

afterAll(async () => {
  await deleteIndexesWithPrefix(client, prefix);
  await client.close();
});

describe('alias swap under a polling reader', () => {
  it('every answer comes wholly from one generation while swapAliases flips them back and forth', async () => {
    await swapAliases(client, prefix, OLD);
    const swaps = 20;
    const report = await whileReading(async (r) => {
      for (let i = 0; i < swaps; i++) {
        await swapAliases(client, prefix, i % 2 === 0 ? NEW : OLD);
        // Let the readers get at least one answer in between, so every swap is read across.
        const polls = r.polls;
        while (r.polls < polls + READERS) await new Promise((resolve) => setImmediate(resolve));
      }
    });
    expect(report.errors).toEqual([]);
    expect(report.mixed).toEqual([]);
    expect(report.partial).toBe(0);
    // The readers really read across the swaps: both generations answered.
    expect([...report.seen].sort()).toEqual([OLD, NEW]);
    expect(report.polls).toBeGreaterThan(swaps * READERS);
    expect(await liveGeneration(client, prefix)).toBe(OLD);
  });

  it('control: the same reader catches a swap made one alias at a time', async () => {
    await swapAliases(client, prefix, OLD);
    let swaps = 0;
    const report = await whileReading(async (r) => {
      // Mixed answers come within a few swaps; the cap only bounds a reader that could not see them.
      while (r.mixed.length === 0 && swaps < 200) {
        await swapOneAliasAtATime(swaps % 2 === 0 ? NEW : OLD);
        swaps++;
      }
    });
    expect(report.errors).toEqual([]);
    expect(report.mixed.length).toBeGreaterThan(0);
    expect(report.mixed[0]).toEqual([OLD, NEW]);
  });
});
