/**
 * What `update` takes from the live generation: what it starts from (its update basis, kept in its `_meta`), its
 * documents' digests, and its indexes cloned as the new generation's.
 */
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import type { FoldTargets } from '../derived/liveFolds.js';
import { areaNamesKey } from '../derived/untouchedDocuments.js';
import { scanIndex } from '../base/scanIndex.js';
import { AREA_LEVEL_VALUE } from '../base/levels.js';
import type { UpdateBasis } from '../pipeline/completion.js';
import { liveGeneration } from '../generations/generations.js';
import { cloneIndex } from './cloneIndex.js';
import type { DigestTable } from './digestTable.js';
import { readLiveDigests } from './liveDigests.js';
import { UpdateRefusedError } from './updateErrors.js';

/** The live generation and what the update starts from, or why it cannot. */
export async function liveBasis(client: Client, prefix: string): Promise<{ live: string; basis: UpdateBasis }> {
  const live = await liveGeneration(client, prefix);
  if (!live) throw new UpdateRefusedError(`prefix "${prefix}" has no live generation: run a full index first`);
  const index = generationIndexName(prefix, 'addresses', live);
  const mapping = await client.indices.getMapping({ index });
  const meta = mapping[index]?.mappings?._meta as { indexer?: { generation?: string; update?: UpdateBasis } };
  const basis = meta?.indexer?.update;
  if (meta?.indexer?.generation !== live || !Array.isArray(basis?.folded_cities)) {
    throw new UpdateRefusedError(
      `live generation ${live} was indexed before \`update\` existed (no update basis in ${index}): run a full index once`,
    );
  }
  return { live, basis };
}

/** The live generation's folds (derivedCities.ts): per group folded, the parents its addresses carry where kept. */
export function liveFoldTargets(basis: UpdateBasis): FoldTargets {
  return new Map(basis.folded_cities.map((group) => [group, basis.folded_into?.[group]]));
}

/** The live generation's cities' names (areaNamesKey), by id: what its streets' and places' documents show of them. */
export async function liveCityNames(client: Client, prefix: string, live: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const pages = scanIndex<{ name: string; names?: Record<string, string> }>(
    client,
    generationIndexName(prefix, 'areas', live),
    { query: { term: { level: AREA_LEVEL_VALUE.cities } }, _source: ['name', 'names'] },
    { pageSize: 5000, checkAbort: () => {} },
  );
  for await (const hits of pages) {
    for (const hit of hits) if (hit._source) out.set(hit._id as string, areaNamesKey(hit._source));
  }
  return out;
}

/**
 * What `update` asks of the live generation while it plans its rows, started at once so that Elasticsearch works
 * while the indexer plans: every kind's digests but the addresses' (those come from the row cache when it is
 * replayed, else `digests()` reads them too) and, unless nothing is to be written, the clone. `settled()` waits until
 * nothing is in flight, so the cleanup of a failed update misses no index.
 */
export interface LiveSide {
  digests(addresses: DigestTable | undefined): Promise<Record<IndexKind, DigestTable>>;
  cloned: Promise<void>;
  settled(): Promise<unknown>;
}

export function startLiveSide(
  client: Client,
  where: { prefix: string; live: string; generation: string },
  created: string[],
  options: { dryRun: boolean; checkAbort: () => void },
): LiveSide {
  const { prefix, live, generation } = where;
  const read = (kind: IndexKind) =>
    readLiveDigests(client, generationIndexName(prefix, kind, live), options.checkAbort);
  const others = Promise.all(
    INDEX_KINDS.filter((k) => k !== 'addresses').map(async (k) => [k, await read(k)] as const),
  );
  const cloned = options.dryRun ? Promise.resolve() : cloneGeneration(client, prefix, live, generation, created);
  // Awaited later (or by settled()): no unhandled rejection while the plan runs.
  others.catch(() => {});
  cloned.catch(() => {});
  return {
    async digests(addresses) {
      const [rest, own] = await Promise.all([others, addresses ?? read('addresses')]);
      return Object.fromEntries([...rest, ['addresses', own]]) as Record<IndexKind, DigestTable>;
    },
    cloned,
    settled: () => Promise.allSettled([others, cloned]),
  };
}

/**
 * The live indexes cloned as `generation`'s, side by side; each one made is pushed to `created` (for the cleanup).
 * All settle before a failure is thrown, so none is left in flight that the cleanup would miss.
 */
export async function cloneGeneration(
  client: Client,
  prefix: string,
  live: string,
  generation: string,
  created: string[],
): Promise<void> {
  const cloned = await Promise.allSettled(
    INDEX_KINDS.map(async (kind) => {
      const index = generationIndexName(prefix, kind, generation);
      await cloneIndex(client, { prefix, generation }, generationIndexName(prefix, kind, live), index);
      created.push(index);
    }),
  );
  const failed = cloned.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
