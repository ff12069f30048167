/**
 * Moves the addresses of folded derived-city groups (derivedCities.ts) to the city they were folded into, with that
 * city's parent chain: in a full run every address of a folded group; in an update also those the live generation
 * holds folded otherwise than this run folds them (indexer/derived/liveFolds.ts), found by id. `_update_by_query` is
 * not used: it lives in Elasticsearch's reindex module, which not every distribution (the local launcher's among
 * them) ships. The addresses are found over a point in time and updated with partial-document bulk updates.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { ParentIds } from '../../core/elasticsearch/documents.js';
import type { CityRemap } from '../derived/derivedCities.js';
import { CONTENT_HASH_FIELD } from '../base/contentDigest.js';
import { scanIndex } from '../base/scanIndex.js';

const PAGE = 5000;
const TERMS_PER_QUERY = 1000;

/** Which addresses to move: found by `field` among `values`, each moved to `targetOf` its hit. */
interface Move {
  field: 'city_id' | '_id';
  values: string[];
  targetOf: (hit: { id: string; cityId: string }) => ParentIds | undefined;
}

/** The addresses of this run's folded groups, and the live generation's refolded ones (by id). Returns how many moved. */
export async function remapAddressCities(
  client: Client,
  index: string,
  remap: CityRemap,
  refolded: ReadonlyMap<string, ParentIds>,
  checkAbort: () => void,
): Promise<number> {
  if (!remap.size && !refolded.size) return 0;
  await client.indices.refresh({ index });
  const byGroup: Move = { field: 'city_id', values: [...remap.keys()], targetOf: (h) => remap.get(h.cityId) };
  const byId: Move = { field: '_id', values: [...refolded.keys()], targetOf: (h) => refolded.get(h.id) };
  return (await move(client, index, byId, checkAbort)) + (await move(client, index, byGroup, checkAbort));
}

async function move(client: Client, index: string, how: Move, checkAbort: () => void): Promise<number> {
  let moved = 0;
  for (let i = 0; i < how.values.length; i += TERMS_PER_QUERY) {
    const values = how.values.slice(i, i + TERMS_PER_QUERY);
    const query: estypes.QueryDslQueryContainer =
      how.field === '_id' ? { ids: { values } } : { terms: { [how.field]: values } };
    const pages = scanIndex<{ city_id: string }>(
      client,
      index,
      {
        query,
        _source: ['city_id'],
        // Left out of _source (a partial update would drop it): carried over, as the address's digest before the move.
        docvalue_fields: [CONTENT_HASH_FIELD],
      },
      { pageSize: PAGE, checkAbort },
    );
    for await (const hits of pages) {
      const operations = hits.flatMap((h) => {
        const target = how.targetOf({ id: h._id as string, cityId: h._source?.city_id ?? '' });
        if (!target) return [];
        const digest = (h.fields?.[CONTENT_HASH_FIELD] as string[] | undefined)?.[0];
        return [
          { update: { _index: index, _id: h._id as string } },
          { doc: digest ? { ...target, [CONTENT_HASH_FIELD]: digest } : target },
        ];
      });
      if (!operations.length) continue;
      const result = await client.bulk({ operations, refresh: false });
      if (result.errors) {
        const first = result.items.find((item) => item.update?.error)?.update?.error;
        throw new Error(`moving addresses to their derived city failed: ${JSON.stringify(first)}`);
      }
      moved += operations.length / 2;
    }
  }
  return moved;
}
