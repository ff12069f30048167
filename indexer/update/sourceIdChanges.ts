/**
 * The addresses' change set counted by the official sources' own ids (BAG nummeraanduiding, BeST address id,
 * OpenAddresses ID or HASH) where the documents carry them: an address whose id changed because its street was
 * renamed or its postcode or box changed is one removed and one added document, but one changed address of the
 * source. Pairs of a removed and an added document with the same source id are counted as changed. Pure, apart from
 * reading the removed documents' ids back (liveSourceIds).
 */
import type { Client } from '@elastic/elasticsearch';
import type { SourceIds } from '../../core/elasticsearch/documents.js';
import type { KindCounts } from './kindChanges.js';

/** The id that names the address itself in its source (not its building or object), first found. */
const ADDRESS_SOURCE_IDS = [
  'bag_nummeraanduiding',
  'best_address',
  'openaddresses_id',
  'openaddresses_hash',
  'osm',
] as const;

export function stableSourceId(ids: SourceIds | undefined): string | undefined {
  if (!ids) return undefined;
  for (const name of ADDRESS_SOURCE_IDS) {
    const value = ids[name];
    if (value) return `${name}:${value}`;
  }
  return undefined;
}

/** Pure: the counts with each removed-and-added pair of one source id moved to changed. */
export function bySourceId(
  counts: KindCounts,
  added: ReadonlyMap<string, string>,
  removed: ReadonlyMap<string, string>,
): KindCounts {
  const removedKeys = new Map<string, number>();
  for (const key of removed.values()) removedKeys.set(key, (removedKeys.get(key) ?? 0) + 1);
  let pairs = 0;
  for (const key of added.values()) {
    const left = removedKeys.get(key) ?? 0;
    if (left > 0) {
      removedKeys.set(key, left - 1);
      pairs++;
    }
  }
  return {
    added: counts.added - pairs,
    changed: counts.changed + pairs,
    removed: counts.removed - pairs,
    unchanged: counts.unchanged,
  };
}

/** The source id of each of `ids` in the live index, where it has one (mget in batches). */
export async function liveSourceIds(
  client: Client,
  index: string,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const res = await client.mget<{ source_ids?: SourceIds }>({ index, ids: batch, _source: ['source_ids'] });
    for (const doc of res.docs) {
      const key = stableSourceId((doc as { _source?: { source_ids?: SourceIds } })._source?.source_ids);
      if (key) out.set(doc._id, key);
    }
    batch = [];
  };
  for (const id of ids) {
    batch.push(id);
    if (batch.length >= 1000) await flush();
  }
  await flush();
  return out;
}
