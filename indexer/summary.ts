/**
 * What a run reports: counts per level and source file, and the checks on them that decide whether a
 * generation may go live.
 */
import type { IndexKind } from '../src/elasticsearch/documents.js';
import { LEVELS, type LevelName, type ParentLevelName } from './levels.js';
import type { RejectReason } from './rejectReasons.js';

export interface SourceSummary {
  file: string;
  read: number;
  skipped: number;
  rejected: number;
}

export interface LevelSummary {
  /** Records that passed the source filters (filtered-out ones are `skipped`). */
  read: number;
  skipped: number;
  /** Accepted and stored: read = indexed + rejected. */
  indexed: number;
  /** Indexed records that landed on an id another record already had (same key / same address). */
  merged: number;
  rejected: number;
  rejectReasons: Partial<Record<RejectReason, number>>;
  /** Per parent level: records that found no parent of that level (only levels the dataset has). */
  unassigned: Partial<Record<ParentLevelName, number>>;
  /** Documents of this level in the new index after refresh: indexed − merged. */
  count: number;
  sources: SourceSummary[];
}

export interface RunSummary {
  ok: boolean;
  generation: string;
  prefix: string;
  manifest: string;
  indexes: Record<IndexKind, string>;
  aliasesSwapped: boolean;
  previousGeneration: string | null;
  pruned: string[];
  levels: Record<LevelName, LevelSummary>;
  rejects: { path: string | null; count: number; byReason: Partial<Record<RejectReason, number>> };
  problems: string[];
  durationMs: number;
  addressesPerSecond: number;
  peakRssMb: number;
}

export function emptyLevel(): LevelSummary {
  return {
    read: 0,
    skipped: 0,
    indexed: 0,
    merged: 0,
    rejected: 0,
    rejectReasons: {},
    unassigned: {},
    count: 0,
    sources: [],
  };
}

export function emptyLevels(): Record<LevelName, LevelSummary> {
  return Object.fromEntries(LEVELS.map((l) => [l, emptyLevel()])) as Record<LevelName, LevelSummary>;
}

/** Pure: the checks that decide whether a generation may go live. */
export function verifyLevels(levels: Record<LevelName, LevelSummary>, maxRejectRatio: number): string[] {
  const problems: string[] = [];
  for (const level of LEVELS) {
    const s = levels[level];
    if (s.read !== s.indexed + s.rejected) {
      problems.push(`${level}: read ${s.read} != indexed ${s.indexed} + rejected ${s.rejected}`);
    }
    if (s.count !== s.indexed - s.merged) {
      problems.push(`${level}: _count ${s.count} != indexed ${s.indexed} - merged ${s.merged}`);
    }
    if (s.merged < 0) problems.push(`${level}: negative merge count ${s.merged}`);
    const ratio = s.read > 0 ? s.rejected / s.read : 0;
    if (ratio > maxRejectRatio) {
      problems.push(
        `${level}: ${s.rejected} of ${s.read} records rejected (${(ratio * 100).toFixed(2)}%), above the maximum ${(maxRejectRatio * 100).toFixed(2)}%`,
      );
    }
  }
  return problems;
}

/** The counts of a level worth a log line (without its per-source detail). */
export function compactLevel(s: LevelSummary) {
  return { read: s.read, indexed: s.indexed, merged: s.merged, rejected: s.rejected, unassigned: s.unassigned };
}
