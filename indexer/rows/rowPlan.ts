/**
 * Which rows of a new snapshot `update` replays from the live generation's row cache (rowCache.ts) and which it reads
 * the full way, decided before anything is written. A row is replayed when its raw bytes are a row of the live
 * generation (by digest) and its document is untouched: no row that produces the same document id changed, was
 * added or went (merged duplicates are decided among all their rows again), and its city is not a derived city the
 * live generation folded into another (its document is rewritten, as the full way does). Every other row is parsed
 * here, with the same CSV settings as a full read, and derived by the loader. Anything a row-by-row read could get
 * wrong (another format or encoding, a changed header, a quote never closed, a row that does not parse as one
 * record) makes the plan say why not, and the update reads the whole snapshot the full way.
 */
import type { AddressSource } from '../manifest/manifestSources.js';
import { classifyItem } from '../records/sourceItems.js';
import { parseCsvRecord } from '../sources/csv.js';
import { isUtf8Name } from '../sources/decode.js';
import type { SourceItem } from '../sources/index.js';
import { addressFromRecord } from '../transform/address.js';
import { digestBytes, type RawCsvScan, type RawRecordSink, scanRawCsv } from './rawCsvRecords.js';
import { ROW_STRINGS, type RowCache, type SourceRows, STRINGS_PER_ROW } from './rowCache.js';

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

/** The row parsed, and whether it is a record to load (not skipped by a filter); a row rejected is not plannable. */
function parse(
  header: Buffer,
  bytes: Buffer,
  line: number,
  lines: number,
  source: AddressSource,
): { item: SourceItem; record: boolean } {
  const props = parseCsvRecord(header, bytes, source.format === 'csv' ? source.delimiter : undefined);
  if (!props) throw new NotPlannable(`${source.file}: line ${line} does not read as one record`);
  const item: SourceItem = { position: line, props };
  if (lines > 1) item.lines = lines;
  const kind = classifyItem(item, source).kind;
  if (kind === 'rejected') throw new NotPlannable(`${source.file}: line ${line} is rejected`);
  return { item, record: kind === 'record' };
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

export async function planRows(
  sources: readonly AddressSource[],
  cache: RowCache,
  folded: ReadonlySet<string>,
): Promise<RowPlan | { why: string }> {
  try {
    return await plan(sources, cache, folded);
  } catch (error) {
    if (error instanceof NotPlannable) return { why: error.message };
    throw error;
  }
}

async function plan(sources: readonly AddressSource[], cache: RowCache, folded: ReadonlySet<string>): Promise<RowPlan> {
  if (cache.sources.length !== sources.length)
    throw new NotPlannable('the address sources differ from the cached ones');
  const c = cache.columns;
  const foldedString = new Uint8Array(cache.strings.length);
  cache.strings.forEach((s, k) => folded.has(s) && (foldedString[k] = 1));
  const cityAt = ROW_STRINGS.indexOf('city');
  const plans: SourcePlan[] = [];
  const dirty = new Set<string>();
  for (const [index, source] of sources.entries()) {
    const cached = cache.sources[index] as SourceRows;
    if (source.format !== 'csv' || !isUtf8Name(source.encoding)) {
      throw new NotPlannable(`${source.file}: rows are replayed from UTF-8 CSV sources only`);
    }
    let replay = new Int32Array(Math.max(16, cached.count));
    const parsed = new Map<number, ParsedRow>();
    let i = 0;
    const scan = await scanOrExplain(source.file, (line, lines, buf, start, end, hi, lo, header) => {
      if (i === replay.length) {
        const grown = new Int32Array(replay.length * 2);
        grown.set(replay);
        replay = grown;
      }
      const r = cache.take(hi, lo);
      if (r >= 0 && !foldedString[c.strings[STRINGS_PER_ROW * r + cityAt] as number]) {
        replay[i++] = r;
        return;
      }
      replay[i] = -1;
      const { item, record } = parse(header, buf.subarray(start, end), line, lines, source);
      parsed.set(i++, { item, hi, lo });
      if (record) {
        const address = addressFromRecord(item.props, item.geometry, source.fields);
        if (address.ok) dirty.add(address.value.id);
      }
    });
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
      let i = 0;
      await scanOrExplain(source.file, (line, lines, buf, start, end, hi, lo, header) => {
        if (again.has(i)) {
          plan.replay[i] = -1;
          plan.parsed.set(i, { item: parse(header, buf.subarray(start, end), line, lines, source).item, hi, lo });
        }
        i++;
      });
    }
    parsed += plan.parsed.size;
  }
  return { cache, sources: plans, replayed, parsed };
}
