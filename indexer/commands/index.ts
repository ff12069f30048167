/**
 * One indexing run: manifest in, a new generation of all five indexes (areas, buildings, addresses, the
 * streets built from the addresses and the places built from all of them) out, verified, then made
 * live with one atomic alias swap. Anything that goes wrong before the swap deletes this run's own
 * indexes and leaves the aliases alone. The whole run holds the prefix's lock (runLock.ts). The run itself is the
 * generation pipeline (pipeline/runGeneration.ts) over fresh indexes (pipeline/freshIndexes.ts).
 */
import type { RunSummary } from '../execution/summary.js';
import { freshIndexes } from '../pipeline/freshIndexes.js';
import { runGeneration } from '../pipeline/runGeneration.js';
import type { RunOptions } from '../pipeline/runOptions.js';
import { startRun } from './startRun.js';

export type { FinalStep, RunOptions } from '../pipeline/runOptions.js';

/** Takes the prefix's lock (or fails at once naming its holder, creating nothing) and runs under it. */
export async function runIndexing(options: RunOptions): Promise<RunSummary> {
  return runGeneration(options, await startRun(options), freshIndexes(options.layout));
}
