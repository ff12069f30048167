/**
 * The write policy of `update` (WritePolicy, execution/runContext.ts): the run computes every document exactly as a
 * full run does, and this sends only those whose content differs from the live generation's (KindChanges per kind),
 * then says what to delete and whether the change is small enough to apply.
 */
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { LoadItem, LoadResult } from '../execution/bulkLoader.js';
import { stableSourceId } from './sourceIdChanges.js';
import type { WritePolicy } from '../execution/writePolicy.js';
import type { DigestTable } from './digestTable.js';
import type { LiveFolds } from '../derived/liveFolds.js';
import { type KindCounts, KindChanges } from './kindChanges.js';

/** The kinds read from the snapshot itself; streets and places follow from them and are not limited. */
export const SOURCE_KINDS: readonly IndexKind[] = ['areas', 'buildings', 'addresses'];

export interface ChangeSetOptions {
  dryRun: boolean;
  /** Refuse when added + changed + removed exceeds this share of a source kind's live documents. */
  maxChangeRatio: number;
  /** Added to every external version sent (update_serial × 2^36: above any version a live copy holds). */
  versionOffset: number;
  /** The live generation's derived-city folds: its addresses of a folded group are moved only where refolded. */
  liveFolds: LiveFolds;
  /** The live generation's derived cities' names (areaNamesKey), by id: a street or place under one renamed is rebuilt. */
  liveCityNames: ReadonlyMap<string, string>;
}

export class ChangeSet implements WritePolicy {
  readonly dryRun: boolean;
  readonly liveFolds: LiveFolds;
  readonly liveCityNames: ReadonlyMap<string, string>;
  private readonly kinds: Record<IndexKind, KindChanges>;
  private readonly settled = new Map<IndexKind, number>();

  constructor(
    private readonly live: Record<IndexKind, DigestTable>,
    private readonly options: ChangeSetOptions,
  ) {
    this.dryRun = options.dryRun;
    this.liveFolds = options.liveFolds;
    this.liveCityNames = options.liveCityNames;
    this.kinds = Object.fromEntries(
      INDEX_KINDS.map((kind) => {
        const limit = SOURCE_KINDS.includes(kind) ? Math.floor(options.maxChangeRatio * live[kind].size) : Infinity;
        return [kind, new KindChanges(kind, live[kind], limit, options.versionOffset)];
      }),
    ) as Record<IndexKind, KindChanges>;
  }

  select(kind: IndexKind): (item: LoadItem<object>, digest: string) => number | undefined | false {
    const changes = this.kinds[kind];
    const dryRun = this.dryRun;
    const added = kind === 'addresses' ? this.addedSourceIds : undefined;
    return (item, digest) => {
      const chosen = changes.offer(item.id, digest, item.version);
      if (added && changes.isAdded(item.id)) {
        const key = stableSourceId((item.doc as Partial<AddressDoc>).source_ids);
        if (key) added.set(item.id, key);
      }
      return dryRun ? false : chosen;
    };
  }

  keep(kind: IndexKind, id: string): boolean {
    return !this.dryRun && this.kinds[kind].kept(id);
  }

  /** A live address `update` replayed from the row cache (indexer/rows/): seen, unchanged, not sent. */
  replayedAddress(liveIndex: number, version: number): void {
    this.kinds.addresses.replayed(liveIndex, version);
  }

  /** The official source id of each address added (its first document), where it has one. */
  readonly addedSourceIds = new Map<string, string>();

  /** Merges were decided here, before sending: the full run's `superseded` is this load's share of them. */
  settle(kind: IndexKind, result: LoadResult): LoadResult {
    const total = this.kinds[kind].superseded;
    const superseded = total - (this.settled.get(kind) ?? 0);
    this.settled.set(kind, total);
    return { ...result, superseded };
  }

  counts(): Record<IndexKind, KindCounts> {
    return Object.fromEntries(INDEX_KINDS.map((k) => [k, this.kinds[k].counts()])) as Record<IndexKind, KindCounts>;
  }

  removedIds(kind: IndexKind): Iterable<string> {
    return this.kinds[kind].removedIds();
  }

  /** Why the change set is too large to apply, naming the numbers (empty: within --max-change-ratio). */
  refusals(counts = this.counts()): string[] {
    return tooLarge(counts, (k) => this.live[k].size, this.options.maxChangeRatio);
  }
}

/** Pure: each source kind whose added + changed + removed passes the ratio of its live documents. */
export function tooLarge(
  counts: Record<IndexKind, KindCounts>,
  liveSize: (kind: IndexKind) => number,
  maxRatio: number,
): string[] {
  const out: string[] = [];
  for (const kind of SOURCE_KINDS) {
    const c = counts[kind];
    const changes = c.added + c.changed + c.removed;
    const live = liveSize(kind);
    const ratio = live ? changes / live : changes ? Infinity : 0;
    if (ratio > maxRatio) {
      out.push(
        `${kind}: ${changes} changes (${c.added} added, ${c.changed} changed, ${c.removed} removed) of ${live} live documents = ${(ratio * 100).toFixed(2)} % > --max-change-ratio ${maxRatio}`,
      );
    }
  }
  return out;
}
