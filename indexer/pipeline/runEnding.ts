/**
 * How every run ends, whether a full run or `update`: once verified and marked complete, the aliases swapped and the
 * old generations pruned (a failed prune leaves them, the run still a success); on a failure, this run's indexes
 * deleted unless the swap happened or its outcome is unknown, and the error handed back with its summary. One place,
 * so both end alike.
 */
import type { Client } from '@elastic/elasticsearch';
import { deleteIndexes } from '../generations/generationIndexes.js';
import { swapAliases } from '../generations/generations.js';
import { prune, type PruneResult } from '../generations/pruning.js';
import type { RunLock } from '../generations/runLock.js';
import { SwapOutcomeUnknownError } from '../generations/swapOutcome.js';
import { IndexingError } from '../execution/errors.js';
import type { Logger } from '../base/logger.js';
import type { ProgressReporter } from '../execution/progress.js';
import type { RejectsWriter } from '../execution/rejects.js';
import type { RunAbort } from '../execution/runAbort.js';
import type { RunSummary } from '../execution/summary.js';

export interface RunEnd {
  client: Client;
  prefix: string;
  generation: string;
  log: Logger;
}

/**
 * Swaps the aliases to the generation (`onSwapped` right after, so the summary says so) and prunes, keeping `keep`
 * generations and those in `protect`. First `abort.commit()`: a run stopped by then throws there and is not swapped
 * (the caller deletes its indexes); a signal after it lets the swap and the prune finish, and the log says so.
 */
export async function swapAndPrune(
  end: RunEnd,
  options: {
    previousGeneration: string | null;
    lock: RunLock | undefined;
    keep: number;
    protect: readonly string[];
    abort: RunAbort;
    /** Called once committed, right before the swap (RunOptions.atStep). */
    beforeSwap?: (() => void | Promise<void>) | undefined;
  },
  onSwapped: () => void,
): Promise<PruneResult | undefined> {
  const { client, prefix, generation, log } = end;
  options.abort.commit();
  await options.beforeSwap?.();
  await swapAliases(client, prefix, generation, log);
  onSwapped();
  log.info({ generation, previousGeneration: options.previousGeneration }, 'aliases swapped');
  let pruned: PruneResult | undefined;
  try {
    await options.lock?.assertHeld();
    pruned = await prune(client, prefix, { keep: options.keep, protect: options.protect });
  } catch (error) {
    log.warn({ error: (error as Error).message }, 'pruning old generations failed; they are left in place');
  }
  const late = options.abort.late;
  if (late) {
    log.warn(
      { signal: late, generation },
      `the alias swap finished after the interrupt: generation ${generation} is live; exiting`,
    );
  }
  return pruned;
}

/**
 * What a failed run leaves: progress stopped, rejects closed, its own indexes (`created`) deleted unless it swapped
 * or the swap's outcome is unknown; returns the IndexingError to throw, with the run's summary.
 */
export async function failedRun(
  end: RunEnd,
  failure: {
    error: unknown;
    swapped: boolean;
    created: readonly string[];
    progress: ProgressReporter;
    rejects: RejectsWriter;
    summary: (problems: string[]) => RunSummary;
    what: 'run' | 'update';
  },
): Promise<IndexingError> {
  const { client, generation, log } = end;
  const { error, created, what } = failure;
  failure.progress.stop();
  await failure.rejects.close().catch(() => {});
  if (error instanceof SwapOutcomeUnknownError) {
    log.error({ generation, error: error.message }, 'alias swap outcome unknown; every index left in place');
  } else if (!failure.swapped) {
    await deleteIndexes(client, [...created]).catch((e) =>
      log.error({ error: (e as Error).message, indexes: created }, `could not delete this ${what}’s indexes`),
    );
    const failed = what === 'run' ? 'indexing failed' : 'update failed';
    log.error({ generation, error: (error as Error).message }, `${failed}; aliases untouched`);
  }
  if (error instanceof IndexingError) {
    error.summary ??= failure.summary([error.message]);
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new IndexingError(message, failure.summary([message]));
}
