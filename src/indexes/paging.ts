import type { Client, estypes } from '@elastic/elasticsearch';
import { asDomainError, elasticsearchCall } from '../elasticsearch/failures.js';
import type { Searcher } from '../elasticsearch/searchBatcher.js';

export interface PageOptions {
  index: string;
  query: estypes.QueryDslQueryContainer;
  /** Must end in a unique field so search_after never skips or repeats a hit. */
  sort: estypes.SortCombinations[];
  source: estypes.SearchSourceConfig;
  pageSize: number;
}

/**
 * Every hit of a query, page by page, past the 10 000-hit window. The first page is a plain search through the
 * alias (most lists fit in one); only when it comes back full is a point in time opened, and it is opened on the
 * concrete index the first page came from (the hits' `_index`), not on the alias: an alias swap between the
 * first page and the point in time would otherwise continue the list from the next generation. Every page of
 * one response reads one generation.
 */
export function firstPageRequest(options: PageOptions): estypes.SearchRequest {
  return {
    query: options.query,
    sort: options.sort,
    size: options.pageSize,
    _source: options.source,
    track_total_hits: false,
  };
}

/**
 * `firstPage` lets a caller fetch page one together with other searches in one round trip. Failures leave as
 * domain errors (BackendUnavailableError), like every other read.
 */
export async function* searchAllPages<T>(
  client: Client,
  options: PageOptions,
  firstPage?: estypes.SearchHit<T>[],
): AsyncGenerator<estypes.SearchHit<T>[]> {
  try {
    yield* hitPages<T>(client, options, firstPage);
  } catch (error) {
    throw asDomainError(error);
  }
}

async function* hitPages<T>(
  client: Client,
  options: PageOptions,
  firstPage?: estypes.SearchHit<T>[],
): AsyncGenerator<estypes.SearchHit<T>[]> {
  let hits = firstPage ?? (await client.search<T>({ index: options.index, ...firstPageRequest(options) })).hits.hits;
  yield hits;
  if (hits.length < options.pageSize) return;

  const pit = await client.openPointInTime({ index: generationOf(hits, options.index), keep_alive: '1m' });
  let pitId = pit.id;
  try {
    while (hits.length === options.pageSize) {
      const last = hits[hits.length - 1];
      const page = await client.search<T>({
        pit: { id: pitId, keep_alive: '1m' },
        query: options.query,
        sort: options.sort,
        size: options.pageSize,
        _source: options.source,
        track_total_hits: false,
        search_after: last?.sort,
      });
      pitId = page.pit_id ?? pitId;
      hits = page.hits.hits;
      if (hits.length > 0) yield hits;
    }
  } finally {
    await client.closePointInTime({ id: pitId }).catch(() => {});
  }
}

/**
 * Whether the parent exists, and the first page of its children, in one round trip (the searcher batches them): an unknown
 * parent is a 404 while a parent without children is an empty list.
 */
export async function existsAndFirstPage<T>(
  searcher: Searcher,
  parentIndex: string,
  parentQuery: estypes.QueryDslQueryContainer,
  options: PageOptions,
): Promise<[boolean, estypes.SearchHit<T>[]]> {
  const [parentRes, pageRes] = await Promise.all([
    searcher.search<unknown>(parentIndex, { query: parentQuery, size: 0, track_total_hits: 1 }),
    searcher.search<T>(options.index, firstPageRequest(options)),
  ]);
  const total = parentRes.hits.total;
  const exists = (typeof total === 'number' ? total : (total?.value ?? 0)) > 0;
  return [exists, pageRes.hits.hits];
}

/** The concrete index one search's hits came from (an alias resolves to one index per search). */
function generationOf(hits: estypes.SearchHit<unknown>[], fallback: string): string {
  return hits[0]?._index ?? fallback;
}

export const sources = <T>(hits: estypes.SearchHit<T>[]): T[] => hits.flatMap((h) => (h._source ? [h._source] : []));

/** Pages of documents: what repositories hand up, so nothing above them sees Elasticsearch's hit shape. */
export type DocPages<T> = AsyncGenerator<T[]>;

export async function* pagesOfDocs<T>(pages: AsyncIterable<estypes.SearchHit<T>[]>): DocPages<T> {
  for await (const page of pages) yield sources(page);
}

/**
 * Every distinct value of a keyword field of an index, in the field's order: a composite aggregation read page by page
 * (no hits fetched). For the per-generation sets kept in memory (the city keys, the held box keys).
 */
export async function distinctValues(
  client: Client,
  index: string,
  field: string,
  pageSize: number,
): Promise<string[]> {
  const values: string[] = [];
  let after: Record<string, string | number | null> | undefined;
  for (;;) {
    const res = await elasticsearchCall(() =>
      client.search({
        index,
        size: 0,
        track_total_hits: false,
        aggs: {
          values: {
            composite: { size: pageSize, sources: [{ key: { terms: { field } } }], ...(after ? { after } : {}) },
          },
        },
      }),
    );
    const agg = res.aggregations?.values as
      { buckets: { key: { key: string } }[]; after_key?: Record<string, string | number | null> } | undefined;
    for (const bucket of agg?.buckets ?? []) values.push(bucket.key.key);
    if (!agg?.after_key || agg.buckets.length < pageSize) return values;
    after = agg.after_key;
  }
}
