/**
 * Paging over a point in time while the indexer swaps the alias: every page of one response must come from
 * the generation the first page came from (a mixed list would repeat or skip records, or mix two datasets).
 */
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAllPages } from '../../../../../src/indexes/paging.js';
import { createTestClient, deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../../../support/elasticsearch.js';

const prefix = uniqueIndexPrefix('paging');
const alias = `${prefix}things`;
const generations = { a: `${prefix}things-a`, b: `${prefix}things-b` };
let client: Client;

beforeAll(async () => {
  client = createTestClient();
  for (const [gen, index] of Object.entries(generations)) {
    await client.indices.create({
      index,
      mappings: { dynamic: 'strict', properties: { id: { type: 'keyword' }, gen: { type: 'keyword' } } },
    });
    // Different data per generation: the same ids, a different `gen`, and b has one record more.
    const count = gen === 'a' ? 5 : 6;
    await client.bulk({
      refresh: true,
      operations: Array.from({ length: count }, (_, i) => [{ index: { _index: index } }, { id: `0${i}`, gen }]).flat(),
    });
  }
  await client.indices.putAlias({ index: generations.a, name: alias });
});

afterAll(async () => {
  await deleteIndexesWithPrefix(client, prefix);
  await client.close();
});

describe('searchAllPages', () => {
  it('reads every page from the first page’s generation when the alias is swapped after the first page', async () => {
    const options = {
      index: alias,
      query: { match_all: {} },
      sort: [{ id: 'asc' as const }],
      source: true,
      pageSize: 2,
    };
    const first = await client.search<{ id: string; gen: string }>({
      index: alias,
      query: options.query,
      sort: options.sort,
      size: options.pageSize,
    });
    // The indexer's swap, between the first page and the rest.
    await client.indices.updateAliases({
      actions: [{ remove: { index: generations.a, alias } }, { add: { index: generations.b, alias } }],
    });
    const seen: { index: string; id: string; gen: string }[] = [];
    for await (const page of searchAllPages<{ id: string; gen: string }>(client, options, first.hits.hits)) {
      for (const hit of page) seen.push({ index: hit._index, id: hit._source!.id, gen: hit._source!.gen });
    }
    expect(seen.map((s) => s.id)).toEqual(['00', '01', '02', '03', '04']);
    expect(new Set(seen.map((s) => s.gen))).toEqual(new Set(['a']));
    expect(new Set(seen.map((s) => s.index))).toEqual(new Set([generations.a]));
  });
});
