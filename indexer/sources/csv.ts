/** Streaming CSV records (constant memory for any file size; `.gz` is gunzipped as a stream). */
import { pipeline } from 'node:stream/promises';
import { type CsvError, parse } from 'csv-parse';
import { openFile } from './open.js';
import type { ReadProgress, SourceItem } from './types.js';

export async function* readCsv(
  path: string,
  options: { delimiter?: string | undefined; progress?: (p: ReadProgress) => void } = {},
): AsyncGenerator<SourceItem> {
  const opened = await openFile(path);
  options.progress?.(opened.progress);
  const skipped: SourceItem[] = [];
  const parser = parse({
    columns: true,
    bom: true,
    delimiter: options.delimiter ?? ',',
    skip_empty_lines: true,
    info: true,
    // A malformed row is a reject, not the end of the run.
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined, raw: string | undefined) => {
      skipped.push({
        position: Number((err as { lines?: unknown } | undefined)?.lines ?? 0),
        props: {},
        error: err?.message ?? 'unreadable CSV record',
        raw: raw || ((err as { record?: unknown } | undefined)?.record ?? null),
      });
      return undefined;
    },
  });
  const done = pipeline(opened.output, parser);
  // Observed through the iterator below; this only keeps a failure from being reported twice.
  done.catch(() => {});
  try {
    for await (const entry of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      while (skipped.length) yield skipped.shift() as SourceItem;
      yield { position: entry.info.lines, props: entry.record };
    }
    while (skipped.length) yield skipped.shift() as SourceItem;
    await done;
  } finally {
    opened.destroy();
    parser.destroy();
  }
}

/** Small lookup tables (join CSVs) are read whole. */
export async function readCsvTable(path: string, delimiter?: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const item of readCsv(path, { delimiter })) {
    if (!item.error) rows.push(item.props as Record<string, string>);
  }
  return rows;
}
