/** What one item read from a source file is to its level: a record, filtered out, or a reject (pure). */
import type { FileSource } from '../manifest/manifestSources.js';
import type { Rejection } from '../base/rejectReasons.js';
import type { SourceItem } from '../sources/index.js';
import { matchesFilters } from './fields.js';

export type ItemOutcome =
  | { kind: 'record' }
  | { kind: 'skipped' }
  /** `weight`: the physical lines it covers, each counted as a record read and rejected. */
  | { kind: 'rejected'; rejection: Rejection; weight: number };

/**
 * An unreadable record, and a record spanning several lines where the source does not allow multi-line fields,
 * count once per physical line: a stray quote that swallowed 200 lines loses 200 records, and the reject ratio
 * must see 200. Checked before the filters, which would judge a swallowed record by garbage.
 */
export function classifyItem(item: SourceItem, source: Pick<FileSource, 'filter' | 'multilineFields'>): ItemOutcome {
  if (item.skip) return { kind: 'skipped' };
  const weight = item.lines ?? 1;
  if (item.error) return { kind: 'rejected', rejection: { reason: 'malformed_record', detail: item.error }, weight };
  if (item.lines && !source.multilineFields) {
    const last = item.position + item.lines - 1;
    return {
      kind: 'rejected',
      rejection: {
        reason: 'multiline_record',
        detail:
          `the record at lines ${item.position}-${last} (${item.lines} lines) has a quoted field holding line breaks, ` +
          'usually a stray quote that swallowed the lines after it; if the file has multi-line fields on purpose, ' +
          'set "multilineFields": true on this source',
      },
      weight,
    };
  }
  if (!matchesFilters(item.props, source.filter)) return { kind: 'skipped' };
  // A readable record whose geometry is not (a damaged GeoPackage blob): one reject, the file read on.
  if (item.invalidGeometry) {
    return { kind: 'rejected', rejection: { reason: 'invalid_geometry', detail: item.invalidGeometry }, weight };
  }
  return { kind: 'record' };
}

/** The GeoPackage table and fid an item was read from, for its reject line; empty for other sources. */
export function rowOf(item: SourceItem): { table?: string; fid?: number } {
  return item.table === undefined ? {} : { table: item.table, fid: item.fid };
}
