/** What UpdateWrites.policy (runContext.ts) is: how a run writes its documents. */
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import type { LiveFolds } from '../derived/liveFolds.js';
import type { BulkLoadOptions, LoadResult } from './bulkLoader.js';

/**
 * How a run writes its documents. A full run sends every one; `update` (indexer/update/changeSet.ts) computes the
 * same documents with the same code and sends only those the live generation lacks or holds otherwise.
 */
export interface WritePolicy {
  /** Nothing is written at all (--dry-run): no index of the new generation exists. */
  readonly dryRun: boolean;
  select(kind: IndexKind): BulkLoadOptions<object>['select'];
  /** The load's result as a full run would have counted it (merges are decided before sending). */
  settle(kind: IndexKind, result: LoadResult): LoadResult;
  /** The live generation's derived-city folds: its addresses of a folded group are noted, to move those refolded. */
  readonly liveFolds?: LiveFolds;
  /** The live generation's derived cities' names (areaNamesKey), by id. */
  readonly liveCityNames?: ReadonlyMap<string, string>;
  /**
   * A document known to be as the live one without its digest (untouchedDocuments.ts): counted unchanged, not sent.
   * False when it cannot be kept so: then it is offered as any other.
   */
  keep(kind: IndexKind, id: string): boolean;
}
