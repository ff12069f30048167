/**
 * Streaming CSV records (constant memory for any file size; `.gz` is gunzipped as a stream). Every record is
 * placed on the physical lines it came from, counted here from the bytes (csv-parse's own line count is off
 * for CRLF inside quotes), so a record spanning several lines and a stretch the parser could not read (a quote
 * never closed swallows every line after it) are reported with their first line and how many lines they cover.
 */
import { type CsvError, type Options as CsvParseOptions, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { createTextDecoder, LineIndex, physicalLines } from './decode.js';
import { openFile, openText } from './open.js';
import { type ReadOptions, SourceFileError, type SourceItem } from './types.js';

export interface CsvOptions extends ReadOptions {
  delimiter?: string | undefined;
}

function newlinesIn(record: Record<string, string>): number {
  let n = 0;
  for (const value of Object.values(record)) {
    for (let i = value.indexOf('\n'); i !== -1; i = value.indexOf('\n', i + 1)) n++;
  }
  return n;
}

/** What the parser said about an unreadable stretch of lines, told in the file's own line numbers. */
function unreadableDetail(errors: CsvError[], first: number, last: number, atEnd: boolean): string {
  const span = last > first ? `lines ${first}-${last} (${last - first + 1} lines)` : `line ${first}`;
  if (atEnd && errors.some((e) => e.code === 'CSV_QUOTE_NOT_CLOSED')) {
    return `a quote opened in the record at line ${first} is never closed: ${span} to the end of the file read as one field and lost`;
  }
  // csv-parse's "at line N" counts differently from the file's lines: the stretch above is the one to trust.
  const messages = [...new Set(errors.map((e) => e.message.replace(/ at line \d+/, '')))];
  return `${span} could not be read as CSV: ${messages.join('; ')}`;
}

/**
 * How a CSV header's names are read, by the column check (readCsvHeader) and the load (readCsv) alike: spaces round
 * a name are dropped (`id, name_fr` has the columns `id` and `name_fr`), as is a byte order mark.
 */
export function csvColumnNames(header: string[]): string[] {
  return header.map((name) => name.replace(/^\uFEFF/, '').trim());
}

/**
 * One record written as RFC 4180 says and readCsv reads it back: a field with a comma, quote or line break quoted,
 * its quotes doubled (the fixtures' and the scale bench's copies of address files are written with it).
 */
export function csvRecord(values: readonly string[]): string {
  return values.map((v) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(',');
}

/** How a source's records are parsed: one setting for the streaming read and for parseCsvRecord. */
function parserOptions(delimiter: string | undefined): CsvParseOptions {
  return { columns: csvColumnNames, bom: true, delimiter: delimiter ?? ',', skip_empty_lines: true };
}

/**
 * One record's bytes read under its file's header line exactly as readCsv reads it (`update` parses only the rows
 * that changed, indexer/rows/). Undefined when they do not read as exactly one record with the header's columns.
 */
export function parseCsvRecord(header: Buffer, record: Buffer, delimiter?: string): Record<string, string> | undefined {
  try {
    const rows = parseSync(
      Buffer.concat([header, Buffer.from('\n'), record]),
      parserOptions(delimiter),
    ) as unknown as Record<string, string>[];
    return rows.length === 1 ? rows[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records (each one raw record, as the raw splitter cuts them) read under their header as parseCsvRecord reads each:
 * in one parse, as a parser set up once per record costs ~0.1 ms. Where the batch does not read as exactly one
 * record per input (one record is malformed), each record is read alone, so each gets its own answer.
 */
export function parseCsvRecords(
  header: Buffer,
  records: readonly Buffer[],
  delimiter?: string,
): (Record<string, string> | undefined)[] {
  if (!records.length) return [];
  const newline = Buffer.from('\n');
  const joined: Buffer[] = [header];
  for (const record of records) joined.push(newline, record);
  try {
    const rows = parseSync(Buffer.concat(joined), parserOptions(delimiter)) as unknown as Record<string, string>[];
    if (rows.length === records.length) return rows;
  } catch {
    // one record does not read: each alone below
  }
  return records.map((record) => parseCsvRecord(header, record, delimiter));
}

export async function* readCsv(path: string, options: CsvOptions = {}): AsyncGenerator<SourceItem> {
  const lineIndex = new LineIndex();
  const opened = await openText(path, { encoding: options.encoding, lines: lineIndex });
  options.progress?.(opened.progress);
  // The parser runs ahead of this loop: each error is kept with the number of records parsed before it.
  const errors: CsvError[] = [];
  const parser = parse({
    ...parserOptions(options.delimiter),
    info: true,
    // A malformed row is a reject, not the end of the run.
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      if (err) errors.push(err);
      return undefined;
    },
  });
  opened.output.on('error', (error) => parser.destroy(error));
  opened.output.pipe(parser);
  /** The last line of the previous record (the header's, to begin with). */
  let previousEnd = 1;
  let records = 0;
  /** The unreadable stretch before the record starting at `next` (its errors came before that record). */
  const unreadable = (next: number, before: number): SourceItem | undefined => {
    let n = 0;
    while (n < errors.length && Number((errors[n] as CsvError).records) < before) n++;
    if (n === 0) return undefined;
    const first = previousEnd + 1;
    const last = Math.max(first, next - 1);
    const lost = errors.splice(0, n);
    const detail = unreadableDetail(lost, first, last, before === Infinity);
    // One bad record (extra or missing columns): its fields as the parser split them, for the rejects file.
    const raw = lost.length === 1 ? ((lost[0] as { record?: unknown }).record ?? null) : null;
    const item = { position: first, props: {}, error: detail, raw };
    return last > first ? { ...item, lines: last - first + 1 } : item;
  };
  try {
    for await (const entry of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { bytes: number; records: number };
    }>) {
      const end = lineIndex.lineAt(entry.info.bytes - 1);
      // More than one line since the previous record: blank lines, a multi-line record or an unreadable stretch.
      const start = end - previousEnd === 1 ? end : end - newlinesIn(entry.record);
      const lost = errors.length ? unreadable(start, entry.info.records) : undefined;
      if (lost) yield lost;
      previousEnd = end;
      records++;
      const item: SourceItem = { position: start, props: entry.record };
      if (end > start) item.lines = end - start + 1;
      yield item;
    }
    const lost = errors.length ? unreadable(physicalLines(opened.position) + 1, Infinity) : undefined;
    if (lost) yield lost;
    if (options.stats) {
      options.stats.lines = physicalLines(opened.position);
      options.stats.encoding = opened.position.encoding;
    }
  } catch (error) {
    throw opened.failure(error, records);
  } finally {
    opened.destroy();
    parser.destroy();
  }
}

/**
 * The header of a CSV file: its column names, from its first line alone (only that line's bytes are decoded, so
 * an encoding error further on is left to the full read, which names it with its line).
 */
export async function readCsvHeader(path: string, options: CsvOptions = {}): Promise<string[]> {
  const opened = await openFile(path);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of opened.output as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(0x0a) || size > 1 << 20) break;
    }
  } catch (error) {
    throw new SourceFileError(path, `${path}: cannot read its header: ${(error as Error).message}`);
  } finally {
    opened.destroy();
  }
  const bytes = Buffer.concat(chunks);
  const end = bytes.indexOf(0x0a);
  const { stream } = createTextDecoder(path, { encoding: options.encoding });
  const parser = parse({ bom: true, delimiter: options.delimiter ?? ',', to_line: 1 });
  stream.on('error', (error) => parser.destroy(error));
  stream.pipe(parser);
  stream.end(end === -1 ? bytes : bytes.subarray(0, end + 1));
  for await (const row of parser as AsyncIterable<string[]>) return csvColumnNames(row);
  return [];
}

/** Small lookup tables (join CSVs) are read whole. */
export async function readCsvTable(path: string, options: CsvOptions = {}): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const item of readCsv(path, options)) {
    if (!item.error) rows.push(item.props as Record<string, string>);
  }
  return rows;
}
