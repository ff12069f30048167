/**
 * `update`: a new snapshot of the manifest's sources applied as a change set on a clone of the live generation
 * (update/changeSetTarget.ts), through the same generation pipeline as a full run (pipeline/runGeneration.ts): the
 * same level loaders, derivations and order, then the same checks, completion mark, swap and prune, under the same
 * lock. `--dry-run` computes the change set and writes nothing (no lock, no index, no alias).
 */
import { runGeneration } from '../pipeline/runGeneration.js';
import { changeSetTarget, type UpdateOptions, type UpdateSummary } from '../update/changeSetTarget.js';
import { startRun } from './startRun.js';

export type { UpdateOptions, UpdateSummary } from '../update/changeSetTarget.js';

export async function runUpdate(options: UpdateOptions): Promise<UpdateSummary> {
  return runGeneration(options, await startRun(options), changeSetTarget(options));
}
