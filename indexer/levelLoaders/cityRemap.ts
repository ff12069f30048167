/**
 * Moves the addresses of folded derived-city groups (derivedCities.ts) to the city they were folded
 * into, with that city's parent chain. `_update_by_query` is not used: it lives in Elasticsearch's
 * reindex module, which not every distribution (the local launcher's among them) ships. The
 * addresses are found over a point in time and updated with partial-document bulk updates.
 */
import type { Client } from '@elastic/elasticsearch';
import type { ParentIds } from '../../core/elasticsearch/documents.js';
import type { CityRemap } from '../derived/derivedCities.js';
import { CONTENT_HASH_FIELD } from '../execution/contentDigest.js';
import { scanIndex } from '../execution/scanIndex.js';

const PAGE = 5000;
const IDS_PER_QUERY = 1000;

export async function remapAddressCities(
  client: Client,
  index: string,
  remap: CityRemap,
  checkAbort: () => void,
): Promise<number> {
  if (!remap.size) return 0;
  await client.indices.refresh({ index });
  const groups = [...remap.keys()];
  let moved = 0;
  for (let i = 0; i < groups.length; i += IDS_PER_QUERY) {
    const ids = groups.slice(i, i + IDS_PER_QUERY);
    const pages = scanIndex<{ city_id: string }>(
      client,
      index,
      {
        query: { terms: { city_id: ids } },
        _source: ['city_id'],
        // Left out of _source (a partial update would drop it): carried over, as the address's digest before the move.
        docvalue_fields: [CONTENT_HASH_FIELD],
      },
      { pageSize: PAGE, checkAbort },
    );
    for await (const hits of pages) {
      const operations = hits.flatMap((h) => {
        const target = remap.get(h._source?.city_id ?? '') as ParentIds;
        const digest = (h.fields?.[CONTENT_HASH_FIELD] as string[] | undefined)?.[0];
        return [
          { update: { _index: index, _id: h._id as string } },
          { doc: digest ? { ...target, [CONTENT_HASH_FIELD]: digest } : target },
        ];
      });
      const result = await client.bulk({ operations, refresh: false });
      if (result.errors) {
        const first = result.items.find((item) => item.update?.error)?.update?.error;
        throw new Error(`moving addresses to their derived city failed: ${JSON.stringify(first)}`);
      }
      moved += hits.length;
    }
  }
  return moved;
}
