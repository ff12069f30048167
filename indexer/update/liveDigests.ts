/**
 * Reads the content digest of every document of a live index (doc values over a point in time: no `_source` is
 * read) into a DigestTable. The live generation must have been written by an indexer that stores digests.
 */
import type { Client } from '@elastic/elasticsearch';
import { CONTENT_HASH_FIELD } from '../execution/contentDigest.js';
import { DigestTable } from './digestTable.js';
import { UpdateRefusedError } from './updateErrors.js';

const PAGE = 10_000;

export async function readLiveDigests(client: Client, index: string, checkAbort: () => void): Promise<DigestTable> {
  await client.indices.refresh({ index });
  const total = (await client.count({ index })).count;
  const table = new DigestTable(total);
  const pit = await client.openPointInTime({ index, keep_alive: '2m' });
  let pitId = pit.id;
  let after: unknown[] | undefined;
  try {
    for (;;) {
      checkAbort();
      const page = await client.search({
        size: PAGE,
        _source: false,
        docvalue_fields: [CONTENT_HASH_FIELD],
        pit: { id: pitId, keep_alive: '2m' },
        sort: [{ _shard_doc: 'asc' }],
        track_total_hits: false,
        filter_path: ['pit_id', 'hits.hits._id', 'hits.hits.fields', 'hits.hits.sort'],
        ...(after ? { search_after: after as never } : {}),
      });
      pitId = page.pit_id ?? pitId;
      const hits = page.hits?.hits ?? [];
      if (!hits.length) break;
      for (const hit of hits) {
        const digest = (hit.fields?.[CONTENT_HASH_FIELD] as string[] | undefined)?.[0];
        if (!digest) {
          throw new UpdateRefusedError(
            `${index} holds documents without a content digest (indexed before \`update\` existed): run a full index once`,
          );
        }
        table.add(hit._id as string, digest);
      }
      after = hits[hits.length - 1]?.sort;
    }
  } finally {
    await client.closePointInTime({ id: pitId }).catch(() => {});
  }
  return table;
}
