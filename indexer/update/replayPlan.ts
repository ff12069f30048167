/**
 * Whether `update` can replay the live generation's address rows (indexer/rows/) and, when it can, the live
 * addresses' digests taken from the row cache instead of read from Elasticsearch. The cache is used only when it is
 * the live generation's, was derived with the same manifest, boundary and street-name files and indexer code, and
 * holds exactly the live addresses; otherwise the update reads the snapshot the full way and says why.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Manifest } from '../manifest/manifestSchema.js';
import { readRowCache } from '../rows/rowCacheFile.js';
import type { RunRowCache } from '../rows/rowCacheRun.js';
import type { RowCache } from '../rows/rowCache.js';
import { planRows, type RowPlan } from '../rows/rowPlan.js';
import { DigestTable } from './digestTable.js';
import type { MemoEntries } from '../rows/derivationMemo.js';

export type ReplayDecision =
  | { plan: RowPlan; addresses: DigestTable; liveIndex: Int32Array; memo: MemoEntries }
  | { plan?: undefined; why: string };

/** Per cache row, its document's index in a digest table of the live addresses (the highest version's digest). */
export function liveAddressDigests(cache: RowCache): { table: DigestTable; liveIndex: Int32Array } {
  const c = cache.columns;
  const table = new DigestTable(cache.size);
  const liveIndex = new Int32Array(cache.size).fill(-1);
  const best = new Float64Array(cache.size);
  for (let r = 0; r < cache.size; r++) {
    if (!cache.replayable(r)) continue;
    const before = table.size;
    const [hi, lo] = [c.docDigest[2 * r] as number, c.docDigest[2 * r + 1] as number];
    const i = table.addWords(c.doc, 4 * r, hi, lo);
    const version = c.version[r] as number;
    const added = table.size > before;
    if (added || version > (best[i] as number)) {
      if (!added) table.setDigest(i, hi, lo);
      best[i] = version;
    }
    liveIndex[r] = i;
  }
  return { table, liveIndex };
}

export async function decideReplay(
  client: Client,
  where: { prefix: string; live: string; addressesIndex: string },
  manifest: Manifest,
  cache: RunRowCache,
): Promise<ReplayDecision> {
  if (cache.unfit) return { why: cache.unfit };
  const read = await readRowCache(cache.dir, where.prefix, where.live);
  if ('missing' in read) return { why: read.missing };
  if (read.head.context !== (await cache.context)) {
    return { why: 'the manifest, a boundary, lookup or street-name file, or the indexer changed since the live run' };
  }
  const { table, liveIndex } = liveAddressDigests(read.cache);
  const live = (await client.count({ index: where.addressesIndex })).count;
  if (live !== table.size) {
    return { why: `the row cache holds ${table.size} addresses, the live generation ${live}` };
  }
  const plan = await planRows(manifest.levels.addresses ?? [], read.cache);
  if ('why' in plan) return { why: plan.why };
  read.cache.doneTaking();
  return { plan, addresses: table, liveIndex, memo: read.memo };
}
