/** What a run (full or `update`) is told by its caller: the CLI, the tests, the benches. */
import type { Client } from '@elastic/elasticsearch';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import type { Logger } from '../base/logger.js';
import type { BulkTuning } from '../execution/bulkLoader.js';
import type { ProgressMode } from '../execution/progress.js';
import type { IndexLayout } from '../generations/generationIndexes.js';
import type { LeaseTiming } from '../generations/runLock.js';

export interface RunOptions {
  client: Client;
  manifestPath: string;
  indexPrefix?: string;
  /**
   * Complete generations to keep, counting the new live one. The generation live before the run and its
   * predecessor are kept beyond it (pruning.ts).
   */
  keep?: number;
  /** Fail when rejected/read exceeds this for any level. */
  maxRejectRatio?: number;
  /** Default `rejects/<generation>.jsonl` under the working directory. */
  rejectsPath?: string;
  progress?: ProgressMode;
  log?: Logger;
  /** Abort the run (the CLI wires SIGINT/SIGTERM here); this run's indexes are then deleted. */
  signal?: AbortSignal;
  /** Catch SIGINT/SIGTERM while the run is in progress and abort cleanly (default true). */
  handleSignals?: boolean;
  tuning?: Partial<BulkTuning>;
  /** Shards and replicas of the new indexes (INDEX_SHARDS, INDEX_REPLICAS); unset: the mapping files'. */
  layout?: IndexLayout;
  /**
   * Called once the new indexes are finished, right before they are counted and verified. Tests use it to play
   * what verification must catch (a document lost between the load and the count).
   */
  beforeVerify?: (indexes: Record<IndexKind, string>) => Promise<void>;
  /** The run lock's lease (default 2 minutes, renewed every 30 s). */
  lease?: Partial<LeaseTiming>;
  /** Where each generation's address rows are kept for the next `update` (default `row-cache/`, indexer/rows/). */
  rowCacheDir?: string;
  /**
   * Called as each of the run's last steps begins (marking the generation complete, saving its row cache, the alias
   * swap), after the run's own check for a stop before it. Tests use it to deliver a signal during a known step.
   */
  atStep?: (step: FinalStep) => void | Promise<void>;
}

/** The last steps of a run (RunOptions.atStep). `swap` is called once the run is committed to swapping. */
export type FinalStep = 'mark-complete' | 'save-row-cache' | 'swap';
