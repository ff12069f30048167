/**
 * A new generation's index made from the live one without reindexing: Elasticsearch's `_clone` (hard links to the
 * live index's segments, not a copy) needs the source write-blocked, which the API never notices (it only reads).
 * The block is put back as it was at once, whatever happened: lifted when the indexer set it, kept when it was there
 * before (someone else's); a killed update's is lifted by the next run (writeBlocks.ts). The clone is opened for
 * writing with refreshes off, like a full run's new index.
 */
import type { Client } from '@elastic/elasticsearch';
import { blockWritesForClone } from '../generations/writeBlocks.js';

export async function cloneIndex(
  client: Client,
  where: { prefix: string; generation: string },
  source: string,
  target: string,
): Promise<void> {
  const restore = await blockWritesForClone(client, where.prefix, source, where.generation);
  try {
    await client.indices.clone({
      index: source,
      target,
      settings: { 'index.blocks.write': false, 'index.refresh_interval': '-1' } as never,
      wait_for_active_shards: 1,
    });
  } finally {
    await restore();
  }
}
