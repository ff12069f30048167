/**
 * Which generations a run deletes, and deleting them. Only ever called by a run holding the prefix's lock
 * (runLock.ts): then no other run is in flight, so an incomplete generation that is not the run's own is debris
 * of a killed run, never one being loaded.
 */
import type { Client } from '@elastic/elasticsearch';
import { deleteIndexes } from './generationIndexes.js';
import { type GenerationInfo, listGenerations } from './generations.js';

export interface PrunePolicy {
  /** Complete generations to keep, counting the live one; the protected ones are kept beyond it. */
  keep: number;
  /** Never deleted: the run's own generation and the rollback chain it found (`rollbackChain`). */
  protect: readonly string[];
}

export interface PruneResult {
  /** Complete generations deleted. */
  pruned: string[];
  /** Incomplete generations deleted: left by killed runs, or written before a kind existed. */
  orphans: string[];
}

/**
 * Pure: the generation live before a run and its predecessor (the newest complete one older than it), when they
 * are complete. They are what `rollback` goes back to, once and twice, after the run: decided when the run starts,
 * because after its swap "the one before live" is by name whatever is newest, even a generation rolled away from.
 */
export function rollbackChain(generations: readonly GenerationInfo[], liveBefore: string | null): string[] {
  const live = generations.find((g) => g.generation === liveBefore && g.complete);
  if (!live) return [];
  const predecessor = generations.find((g) => g.complete && g.generation < live.generation);
  return predecessor ? [live.generation, predecessor.generation] : [live.generation];
}

/** Pure: incomplete generations that are neither live nor protected. */
export function orphanGenerations(generations: readonly GenerationInfo[], protect: readonly string[]): string[] {
  return generations.filter((g) => !g.complete && !g.live && !protect.includes(g.generation)).map((g) => g.generation);
}

/**
 * Pure: the complete generations to delete. Kept: the live one and the protected ones, then, while fewer than
 * `keep`, the next older ones down the rollback chain (older than the oldest kept). A complete generation newer
 * than that chain's start and older than live was rolled away from: never kept, so no rollback can land on it.
 */
export function prunableGenerations(generations: readonly GenerationInfo[], policy: PrunePolicy): string[] {
  const complete = generations.filter((g) => g.complete);
  const kept = new Set(
    complete.filter((g) => g.live || policy.protect.includes(g.generation)).map((g) => g.generation),
  );
  const oldestKept = [...kept].sort()[0];
  for (const g of complete) {
    if (kept.size >= policy.keep) break;
    if (oldestKept === undefined || g.generation < oldestKept) kept.add(g.generation);
  }
  return complete.filter((g) => !kept.has(g.generation)).map((g) => g.generation);
}

/** Deletes the incomplete generations other than the protected ones (a run calls it right after taking the lock). */
export async function removeOrphans(
  client: Client,
  generations: readonly GenerationInfo[],
  protect: readonly string[],
): Promise<string[]> {
  const orphans = orphanGenerations(generations, protect);
  await deleteGenerations(client, generations, orphans);
  return orphans;
}

/** After the swap: deletes what `prunableGenerations` and `orphanGenerations` name. Never the live generation. */
export async function prune(client: Client, prefix: string, policy: PrunePolicy): Promise<PruneResult> {
  const generations = await listGenerations(client, prefix);
  const result = {
    pruned: prunableGenerations(generations, policy),
    orphans: orphanGenerations(generations, policy.protect),
  };
  await deleteGenerations(client, generations, [...result.pruned, ...result.orphans]);
  return result;
}

async function deleteGenerations(
  client: Client,
  generations: readonly GenerationInfo[],
  names: readonly string[],
): Promise<void> {
  for (const g of generations) {
    if (!names.includes(g.generation) || g.live) continue;
    await deleteIndexes(
      client,
      Object.values(g.indexes).map((i) => i.index),
    );
  }
}
