import type { IndexKind } from './documents.js';

/**
 * The API reads only aliases; the indexer writes versioned indexes `<alias>-<generation>` behind them.
 * A prefix lets several deployments (or test runs) share one cluster.
 */
export function aliasName(prefix: string, kind: IndexKind): string {
  return `${prefix}${kind}`;
}

export function generationIndexName(prefix: string, kind: IndexKind, generation: string): string {
  return `${aliasName(prefix, kind)}-${generation}`;
}
