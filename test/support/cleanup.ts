import type { Client } from '@elastic/elasticsearch';
import { pruneRowCaches } from '../../indexer/rows/rowCacheFile.js';
import { rowCacheDir } from '../../indexer/rows/rowCacheRun.js';

/**
 * Every index of the prefix, and the row caches its runs left (indexer/rows/). Exact names only: the cluster refuses
 * wildcard deletes (action.destructive_requires_name).
 */
export async function deleteIndexesWithPrefix(client: Client, prefix: string): Promise<void> {
  const rows = await client.cat.indices({ index: `${prefix}*`, format: 'json', h: 'index' });
  const names = rows.map((r) => r.index).filter((n): n is string => Boolean(n));
  // In slices: the names go into the request line, which Elasticsearch caps at 4 KB (a prefix holding a few
  // generations of five index kinds is past that).
  for (let i = 0; i < names.length; i += 20) {
    await client.indices.delete({ index: names.slice(i, i + 20), ignore_unavailable: true });
  }
  await pruneRowCaches(rowCacheDir(undefined), prefix, []);
}
