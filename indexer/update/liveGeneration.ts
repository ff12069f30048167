/**
 * What `update` takes from the live generation: what it starts from (its update basis, kept in its `_meta`), its
 * documents' digests, and its indexes cloned as the new generation's.
 */
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import type { UpdateBasis } from '../execution/completion.js';
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

/**
 * Every kind's digests, the kinds side by side (each scan waits on the cluster, not on the others); `known`: kinds
 * already had otherwise (the addresses from a row cache).
 */
export async function readGenerationDigests(
  client: Client,
  prefix: string,
  live: string,
  checkAbort: () => void,
  known: Partial<Record<IndexKind, DigestTable>> = {},
): Promise<Record<IndexKind, DigestTable>> {
  const tables = await Promise.all(
    INDEX_KINDS.map(
      (kind) => known[kind] ?? readLiveDigests(client, generationIndexName(prefix, kind, live), checkAbort),
    ),
  );
  return Object.fromEntries(INDEX_KINDS.map((k, i) => [k, tables[i]])) as Record<IndexKind, DigestTable>;
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
      await cloneIndex(client, generationIndexName(prefix, kind, live), index);
      created.push(index);
    }),
  );
  const failed = cloned.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
