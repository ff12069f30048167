/**
 * What an alias swap whose request failed did after all. The `_aliases` request may have been applied with its
 * answer lost (a reset connection, a proxy's 502/504): only the aliases read back from the cluster tell, and until
 * they are read nobody may delete an index, since the one deleted could be the one just made live.
 */
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';

/**
 * `applied`: every alias points at its target alone (the swap went through). `not-applied`: no alias points at its
 * target (the aliases are as they were; the targets serve nothing). `mixed`: anything else, which one atomic request
 * cannot leave: somebody else changed the aliases.
 */
export type SwapOutcome = 'applied' | 'not-applied' | 'mixed';

/** `live`: which indexes each alias points at, read back after the failure; `targets`: the index of each kind. */
export function swapOutcome(
  live: Partial<Record<IndexKind, string[]>>,
  targets: Record<IndexKind, string>,
): SwapOutcome {
  const onTarget = INDEX_KINDS.map((kind) => (live[kind] ?? []).includes(targets[kind]));
  if (INDEX_KINDS.every((kind, i) => onTarget[i] && live[kind]?.length === 1)) return 'applied';
  if (onTarget.every((on) => !on)) return 'not-applied';
  return 'mixed';
}

/** A swap that may or may not have been applied: every index is to be left in place. */
export class SwapOutcomeUnknownError extends Error {
  override name = 'SwapOutcomeUnknownError';
}

/**
 * The message of a swap whose outcome is unknown: what happened, that nothing was deleted (the new generation kept
 * beside the live one), and how to check.
 */
export function unknownOutcomeMessage(prefix: string, generation: string, failure: string, readBack: string): string {
  const prefixFlag = prefix ? ` --prefix ${prefix}` : '';
  return (
    `the alias swap to generation ${generation} failed (${failure}) and ${readBack}: whether the aliases moved is ` +
    `unknown, so no index was deleted: generation ${generation} is kept. Check which generation is live with ` +
    `\`npm run index -- status${prefixFlag}\` (its "live" flag): if it is ${generation}, the swap was applied; if ` +
    `not, the next run on the prefix deletes ${generation} (complete and newer than the live one: pruned)`
  );
}
