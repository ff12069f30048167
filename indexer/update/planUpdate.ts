/**
 * The start of an `update`, before anything is written: the live generation's row cache planned against the snapshot
 * (replayPlan.ts), the change set decided on the live digests (read by Elasticsearch meanwhile: liveGeneration.ts),
 * and the rows this update records.
 */
import type { Client } from '@elastic/elasticsearch';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import type { UpdateBasis } from '../pipeline/completion.js';
import type { Logger } from '../base/logger.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import type { AddressRows } from '../rows/addressRows.js';
import { addressRowsOf, type RunRowCache } from '../rows/rowCacheRun.js';
import type { ChangeSet } from './changeSet.js';
import type { DigestTable } from './digestTable.js';
import type { LiveSide } from './liveGeneration.js';
import { decideReplay } from './replayPlan.js';

/** How many rows are replayed and read, or why the whole snapshot is read. */
export type RowCounts = { replayed: number; read: number } | { readInFull: string };

/**
 * Whether and how the snapshot's rows are replayed (the live row cache planned against it), the change set decided on
 * the live digests, and the rows this update records. The live cache is held only by the rows returned, which the
 * address loader lets go of once they are replayed.
 */
export async function planUpdate(
  on: {
    client: Client;
    prefix: string;
    live: string;
    manifest: Manifest;
    rowCache: RunRowCache;
    basis: UpdateBasis;
    liveSide: LiveSide;
    log: Logger;
  },
  changeSetOf: (digests: Record<IndexKind, DigestTable>) => ChangeSet,
): Promise<{
  rowCounts: RowCounts;
  rows: AddressRows | undefined;
  changes: ChangeSet;
  planMs: number;
  waitMs: number;
}> {
  const started = Date.now();
  const addressesIndex = generationIndexName(on.prefix, 'addresses', on.live);
  const replay = await decideReplay(
    on.client,
    { prefix: on.prefix, live: on.live, addressesIndex },
    on.manifest,
    on.rowCache,
  );
  if (!replay.plan) on.log.info({ why: replay.why }, 'reading the whole snapshot');
  const planMs = Date.now() - started;
  const digests = await on.liveSide.digests(replay.plan && replay.addresses);
  await on.liveSide.cloned;
  const waitMs = Date.now() - started - planMs;
  const changes = changeSetOf(digests);
  const recorded = addressRowsOf(on.rowCache, replay.plan && { cache: replay.plan.cache, memo: replay.memo });
  const rows = recorded && {
    ...recorded,
    ...(replay.plan && {
      plan: replay.plan,
      liveIndex: replay.liveIndex,
      replayed: (i: number, version: number) => changes.replayedAddress(i, version),
    }),
  };
  const rowCounts: RowCounts = replay.plan
    ? { replayed: replay.plan.replayed, read: replay.plan.parsed }
    : { readInFull: replay.why };
  return { rowCounts, rows, changes, planMs, waitMs };
}
