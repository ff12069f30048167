/** The row caches of generations the prefix no longer has, deleted once a run has swapped and pruned. */
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '../base/logger.js';
import { listGenerations } from '../generations/generations.js';
import { pruneRowCaches } from '../rows/rowCacheFile.js';

/** Deletes the row caches of generations the prefix no longer has. */
export async function pruneRowCachesOf(client: Client, dir: string, prefix: string, log: Logger): Promise<void> {
  try {
    const kept = (await listGenerations(client, prefix)).map((g) => g.generation);
    await pruneRowCaches(dir, prefix, kept);
  } catch (error) {
    log.warn({ dir, error: (error as Error).message }, 'old row caches not pruned');
  }
}
