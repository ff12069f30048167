/**
 * A new generation's index made from the live one without reindexing: Elasticsearch's `_clone` (hard links to the
 * live index's segments, not a copy) needs the source write-blocked, which the API never notices (it only reads);
 * the block is lifted again at once, whatever happened. The clone is opened for writing with refreshes off, like a
 * full run's new index.
 */
import type { Client } from '@elastic/elasticsearch';

export async function cloneIndex(client: Client, source: string, target: string): Promise<void> {
  await client.indices.putSettings({ index: source, settings: { 'index.blocks.write': true } });
  try {
    await client.indices.clone({
      index: source,
      target,
      settings: { 'index.blocks.write': false, 'index.refresh_interval': '-1' } as never,
      wait_for_active_shards: 1,
    });
  } finally {
    await client.indices.putSettings({ index: source, settings: { 'index.blocks.write': null } as never });
  }
}
