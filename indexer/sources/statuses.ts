/**
 * Status filtering of the official formats (BAG, BeST), in one place: which statuses a source reads (compared
 * trimmed and case-insensitively: a file's capitalisation is not a reason to drop its addresses) and the count per
 * status kept and skipped that the run summary and `validate` report.
 */
import type { ReadStats } from './types.js';

export function statusKey(status: string): string {
  return status.trim().toLowerCase();
}

export function statusFilter(kept: readonly string[]): (status: string) => boolean {
  const keys = new Set(kept.map(statusKey));
  return (status) => keys.has(statusKey(status));
}

/** One record more under its status, kept or skipped (`(empty)` for a record without one). */
export function countStatus(stats: ReadStats | undefined, kept: boolean, status: string): void {
  if (!stats) return;
  const statuses = (stats.statuses ??= { kept: {}, skipped: {} });
  const bucket = kept ? statuses.kept : statuses.skipped;
  const name = status || '(empty)';
  bucket[name] = (bucket[name] ?? 0) + 1;
}
