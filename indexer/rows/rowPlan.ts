/**
 * Which rows of a new snapshot `update` replays from the live generation's row cache (rowCache.ts) and which it reads
 * the full way, decided before anything is written. A row is replayed when its raw bytes are a row of the live
 * generation (by digest) and its document is untouched: no row that produces the same document id changed, was
 * added or went (merged duplicates are decided among all their rows again). Every other row is parsed here, with the
 * same CSV settings as a full read, and derived by the loader. Anything a row-by-row read could get wrong (another
 * format or encoding, a changed header, a quote never closed, a row that does not parse as one record) makes the
 * plan say why not, and the update reads the whole snapshot the full way.
 */
import type { AddressSource } from '../manifest/manifestSources.js';
import { isUtf8Name } from '../sources/decode.js';
import { parseCsvRecord } from '../sources/csv.js';
import type { SourceItem } from '../sources/index.js';
import { classifyItem } from '../records/sourceItems.js';
import { addressFromRecord } from '../transform/address.js';
import { type RawCsv, readRawCsv } from './rawCsvRecords.js';
import type { RowCache, SourceRows } from './rowCache.js';
import { digestBytes } from './rawCsvRecords.js';

export interface SourcePlan {
  raw: RawCsv;
  /** Per raw record: the cache row it replays, or -1 (read the full way: `items` holds it parsed). */
  replay: Int32Array;
  items: Map<number, SourceItem>;
}

export interface RowPlan {
  cache: RowCache;
  sources: SourcePlan[];
  replayed: number;
  parsed: number;
}

/** The raw record `i` as the item a full read yields; undefined when it does not parse as one record. */
export function parsedItem(raw: RawCsv, i: number, source: AddressSource): SourceItem | undefined {
  const bytes = raw.bytes.subarray(raw.start[i] as number, raw.end[i] as number);
  const props = parseCsvRecord(raw.header, bytes, source.format === 'csv' ? source.delimiter : undefined);
  if (!props) return undefined;
  const item: SourceItem = { position: raw.line[i] as number, props };
  if ((raw.lines[i] as number) > 1) item.lines = raw.lines[i] as number;
  return item;
}

export async function planRows(sources: readonly AddressSource[], cache: RowCache): Promise<RowPlan | { why: string }> {
  if (cache.sources.length !== sources.length) return { why: 'the address sources differ from the cached ones' };
  const plans: SourcePlan[] = [];
  const dirty = new Set<string>();
  let parsed = 0;
  for (const [index, source] of sources.entries()) {
    const cached = cache.sources[index] as SourceRows;
    if (source.format !== 'csv' || !isUtf8Name(source.encoding)) {
      return { why: `${source.file}: rows are replayed from UTF-8 CSV sources only` };
    }
    const raw = await readRawCsv(source.file);
    const header = digestBytes(raw.header);
    if (header.hi !== cached.headerHi || header.lo !== cached.headerLo)
      return { why: `${source.file}: its header changed` };
    if (raw.unclosedQuote) return { why: `${source.file}: a quote is never closed` };
    const replay = new Int32Array(raw.count);
    const items = new Map<number, SourceItem>();
    for (let i = 0; i < raw.count; i++) {
      const r = cache.take(raw.hi[i] as number, raw.lo[i] as number);
      replay[i] = r;
      if (r >= 0) continue;
      const item = parsedItem(raw, i, source);
      if (!item) return { why: `${source.file}: line ${raw.line[i]} does not read as one record` };
      const outcome = classifyItem(item, source);
      if (outcome.kind === 'rejected') return { why: `${source.file}: line ${raw.line[i]} is rejected` };
      items.set(i, item);
      parsed++;
      if (outcome.kind === 'record') {
        const address = addressFromRecord(item.props, item.geometry, source.fields);
        if (address.ok) dirty.add(address.value.id);
      }
    }
    plans.push({ raw, replay, items });
  }
  for (let r = 0; r < cache.size; r++) if (cache.replayable(r) && !cache.wasTaken(r)) dirty.add(cache.docId(r));
  // The rows of a document some change touched are all read again: which of them wins is decided anew.
  const dirtyHead = new Set<number>();
  for (const id of dirty) dirtyHead.add(Number.parseInt(id.slice(0, 8), 16));
  let replayed = 0;
  for (const [index, plan] of plans.entries()) {
    const source = sources[index] as AddressSource;
    for (let i = 0; i < plan.raw.count; i++) {
      const r = plan.replay[i] as number;
      if (r < 0) continue;
      if (!cache.replayable(r) || (dirtyHead.has(cache.columns.doc[4 * r] as number) && dirty.has(cache.docId(r)))) {
        const item = parsedItem(plan.raw, i, source);
        if (!item) return { why: `${source.file}: line ${plan.raw.line[i]} does not read as one record` };
        plan.replay[i] = -1;
        plan.items.set(i, item);
        parsed++;
      } else replayed++;
    }
  }
  return { cache, sources: plans, replayed, parsed };
}
