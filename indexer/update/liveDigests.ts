/**
 * Reads the content digest of every document of a live index (doc values over a point in time: no `_source` is
 * read) into a DigestTable. The live generation must have been written by an indexer that stores digests.
 */
import type { Client } from '@elastic/elasticsearch';
import { CONTENT_HASH_FIELD } from '../base/contentDigest.js';
import { scanIndex } from '../base/scanIndex.js';
import { DigestTable } from './digestTable.js';
import { UpdateRefusedError } from './updateErrors.js';

const PAGE = 10_000;

export async function readLiveDigests(client: Client, index: string, checkAbort: () => void): Promise<DigestTable> {
  await client.indices.refresh({ index });
  const total = (await client.count({ index })).count;
  const table = new DigestTable(total);
  const pages = scanIndex(
    client,
    index,
    {
      _source: false,
      docvalue_fields: [CONTENT_HASH_FIELD],
      track_total_hits: false,
      filter_path: ['pit_id', 'hits.hits._id', 'hits.hits.fields', 'hits.hits.sort'],
    },
    { pageSize: PAGE, checkAbort },
  );
  for await (const hits of pages) {
    for (const hit of hits) {
      const digest = (hit.fields?.[CONTENT_HASH_FIELD] as string[] | undefined)?.[0];
      if (!digest) {
        throw new UpdateRefusedError(
          `${index} holds documents without a content digest (indexed before \`update\` existed): run a full index once`,
        );
      }
      table.add(hit._id as string, digest);
    }
  }
  return table;
}
