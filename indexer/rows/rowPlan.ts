/**
 * Which rows of a new snapshot `update` replays from the live generation's row cache (rowCache.ts) and which it reads
 * the full way, decided before anything is written. A row is replayed when its raw bytes are a row of the live
 * generation (by digest) and its document is untouched: no row that produces the same document id changed, was
 * added or went (merged duplicates are decided among all their rows again). A row of a derived city the live
 * generation folded into another is replayed too: indexer/derived/liveFolds.ts moves it where this run folds otherwise. Every other row is parsed
 * here, with the same CSV settings as a full read, and derived by the loader. Anything a row-by-row read could get
 * wrong (another format or encoding, a changed header, a quote never closed, a row that does not parse as one
 * record) makes the plan say why not, and the update reads the whole snapshot the full way.
 */
import type { AddressSource } from '../manifest/manifestSources.js';
import { classifyItem } from '../transform/sourceItems.js';
import { parseCsvRecords } from '../sources/csv.js';
import { isUtf8Name } from '../base/encodingNames.js';
import type { SourceItem } from '../sources/index.js';
import { addressFromRecord } from '../transform/address.js';
import { digestBytes, type RawCsvScan, type RawRecordSink, scanRawCsv } from './rawCsvRecords.js';
import type { RowCache, SourceRows } from './rowCache.js';

/** A row read the full way: parsed, with its raw digest for the new row cache. */
export interface ParsedRow {
  item: SourceItem;
  hi: number;
  lo: number;
}

export interface SourcePlan {
  scan: RawCsvScan;
  /** Per raw record: the cache row it replays, or -1 (read the full way: `parsed` holds it). */
  replay: Int32Array;
  parsed: Map<number, ParsedRow>;
}

export interface RowPlan {
  cache: RowCache;
  sources: SourcePlan[];
  replayed: number;
  parsed: number;
}

class NotPlannable extends Error {}

/** A row to parse once its file's scan is done: its bytes (copied), where it starts, the lines it covers, its digest. */
interface PendingRow {
  at: number;
  bytes: Buffer;
  line: number;
  lines: number;
  hi: number;
  lo: number;
}

/** Rows parsed per call: one parser set up per batch, the batch's text bounded. */
const PARSE_BATCH = 10_000;

/** The rows parsed in batches (parseCsvRecords), each with whether it is a record to load (not skipped by a filter). */
function parseRows(
  header: Buffer,
  pending: readonly PendingRow[],
  source: AddressSource,
): { row: PendingRow; item: SourceItem; record: boolean }[] {
  const delimiter = source.format === 'csv' ? source.delimiter : undefined;
  const parsed: (Record<string, string> | undefined)[] = [];
  for (let k = 0; k < pending.length; k += PARSE_BATCH) {
    const batch = pending.slice(k, k + PARSE_BATCH).map((p) => p.bytes);
    for (const props of parseCsvRecords(header, batch, delimiter)) parsed.push(props);
  }
  return pending.map((row, k) => {
    const props = parsed[k];
    if (!props) throw new NotPlannable(`${source.file}: line ${row.line} does not read as one record`);
    const item: SourceItem = { position: row.line, props };
    if (row.lines > 1) item.lines = row.lines;
    const kind = classifyItem(item, source).kind;
    if (kind === 'rejected') throw new NotPlannable(`${source.file}: line ${row.line} is rejected`);
    return { row, item, record: kind === 'record' };
  });
}

/** A pending row with its bytes copied out of the scan's buffer (valid during the sink's call only). */
function pendingRow(
  at: number,
  buf: Buffer,
  start: number,
  end: number,
  line: number,
  lines: number,
  hi: number,
  lo: number,
): PendingRow {
  return { at, bytes: Buffer.from(buf.subarray(start, end)), line, lines, hi, lo };
}

/** A file the raw pass cannot read (a truncated .gz) is read the full way, which names what is wrong with it. */
async function scanOrExplain(path: string, sink: RawRecordSink): Promise<RawCsvScan> {
  try {
    return await scanRawCsv(path, sink);
  } catch (error) {
    if (error instanceof NotPlannable) throw error;
    throw new NotPlannable(`${path}: ${(error as Error).message}`);
  }
}

export async function planRows(sources: readonly AddressSource[], cache: RowCache): Promise<RowPlan | { why: string }> {
  try {
    return await plan(sources, cache);
  } catch (error) {
    if (error instanceof NotPlannable) return { why: error.message };
    throw error;
  }
}

async function plan(sources: readonly AddressSource[], cache: RowCache): Promise<RowPlan> {
  if (cache.sources.length !== sources.length)
    throw new NotPlannable('the address sources differ from the cached ones');
  const plans: SourcePlan[] = [];
  const dirty = new Set<string>();
  for (const [index, source] of sources.entries()) {
    const cached = cache.sources[index] as SourceRows;
    if (source.format !== 'csv' || !isUtf8Name(source.encoding)) {
      throw new NotPlannable(`${source.file}: rows are replayed from UTF-8 CSV sources only`);
    }
    let replay = new Int32Array(Math.max(16, cached.count));
    const parsed = new Map<number, ParsedRow>();
    const pending: PendingRow[] = [];
    let i = 0;
    const scan = await scanOrExplain(source.file, (line, lines, buf, start, end, hi, lo) => {
      if (i === replay.length) {
        const grown = new Int32Array(replay.length * 2);
        grown.set(replay);
        replay = grown;
      }
      const r = cache.take(hi, lo);
      if (r >= 0) {
        replay[i++] = r;
        return;
      }
      replay[i] = -1;
      pending.push(pendingRow(i++, buf, start, end, line, lines, hi, lo));
    });
    for (const { row, item, record } of parseRows(scan.header, pending, source)) {
      parsed.set(row.at, { item, hi: row.hi, lo: row.lo });
      if (record) {
        const address = addressFromRecord(item.props, item.geometry, source.fields);
        if (address.ok) dirty.add(address.value.id);
      }
    }
    const digest = { ...digestBytes(scan.header) };
    if (digest.hi !== cached.headerHi || digest.lo !== cached.headerLo) {
      throw new NotPlannable(`${source.file}: its header changed`);
    }
    if (scan.unclosedQuote) throw new NotPlannable(`${source.file}: a quote is never closed`);
    plans.push({ scan, replay: replay.subarray(0, scan.count), parsed });
  }
  return settle(sources, cache, plans, dirty);
}

/**
 * The rows of a document some change touched are all read again, whichever of them wins: replayed rows whose document
 * id a parsed row produces, or a live row the snapshot no longer holds produced, are parsed in a second pass over
 * their file (merged duplicates are rare: most files need none).
 */
async function settle(
  sources: readonly AddressSource[],
  cache: RowCache,
  plans: SourcePlan[],
  dirty: Set<string>,
): Promise<RowPlan> {
  for (let r = 0; r < cache.size; r++) if (cache.replayable(r) && !cache.wasTaken(r)) dirty.add(cache.docId(r));
  const dirtyHead = new Set<number>();
  for (const id of dirty) dirtyHead.add(Number.parseInt(id.slice(0, 8), 16));
  const doc = cache.columns.doc;
  let replayed = 0;
  let parsed = 0;
  for (const [index, plan] of plans.entries()) {
    const again = new Set<number>();
    for (let i = 0; i < plan.replay.length; i++) {
      const r = plan.replay[i] as number;
      if (r < 0) continue;
      if (dirtyHead.has(doc[4 * r] as number) && dirty.has(cache.docId(r))) again.add(i);
      else replayed++;
    }
    if (again.size) {
      const source = sources[index] as AddressSource;
      const pending: PendingRow[] = [];
      let i = 0;
      const scan = await scanOrExplain(source.file, (line, lines, buf, start, end, hi, lo) => {
        if (again.has(i)) pending.push(pendingRow(i, buf, start, end, line, lines, hi, lo));
        i++;
      });
      for (const { row, item } of parseRows(scan.header, pending, source)) {
        plan.replay[row.at] = -1;
        plan.parsed.set(row.at, { item, hi: row.hi, lo: row.lo });
      }
    }
    parsed += plan.parsed.size;
  }
  return { cache, sources: plans, replayed, parsed };
}
