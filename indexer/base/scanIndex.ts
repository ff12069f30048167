/**
 * Every document of an index that a query matches, page by page, over a point in time in `_shard_doc` order (the
 * cheapest full scan: no score, no sort on a field), so writes made between pages do not shift the scan. The point in
 * time is closed whatever happens; `checkAbort` runs before each page.
 */
import type { Client, estypes } from '@elastic/elasticsearch';

/** What a scan asks of each page: the query and what each hit carries (`_source`, `docvalue_fields`, ...). */
export type ScanRequest = Omit<estypes.SearchRequest, 'index' | 'pit' | 'sort' | 'search_after' | 'size'>;

export async function* scanIndex<T>(
  client: Client,
  index: string,
  request: ScanRequest,
  options: { pageSize: number; checkAbort: () => void },
): AsyncGenerator<estypes.SearchHit<T>[]> {
  const pit = await client.openPointInTime({ index, keep_alive: '2m' });
  let pitId = pit.id;
  let after: estypes.SortResults | undefined;
  try {
    for (;;) {
      options.checkAbort();
      const page = await client.search<T>({
        ...request,
        size: options.pageSize,
        pit: { id: pitId, keep_alive: '2m' },
        sort: [{ _shard_doc: 'asc' }],
        ...(after ? { search_after: after } : {}),
      });
      pitId = page.pit_id ?? pitId;
      const hits = page.hits?.hits ?? [];
      if (!hits.length) return;
      yield hits;
      after = hits[hits.length - 1]?.sort;
    }
  } finally {
    await client.closePointInTime({ id: pitId }).catch(() => {});
  }
}
