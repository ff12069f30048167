/**
 * The rows of a generation being written, by a full run or an update (rowCache.ts holds the columns and how they are
 * read back). Pure.
 */
import {
  ROW_RECORD,
  ROW_STRINGS,
  ROW_UNREPLAYABLE,
  type RowCache,
  type RowColumnArray,
  type RowColumnName,
  RowColumns,
  type RowData,
  type SourceRows,
  STRINGS_PER_ROW,
} from './rowCache.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function hexWord(text: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 8; i++) {
    const c = text.charCodeAt(i);
    n = (n << 4) | (c <= 57 ? c - 48 : c - 87);
  }
  return n >>> 0;
}

/**
 * One generation's rows being written (by a full run or an update). The rows this run derives are held in `own`
 * columns. An update's replayed rows are not copied: each is held as the live cache's row it replays and its new
 * version (12 bytes instead of ~80), and taken from the live cache when the file is written (rowCacheFile.ts), so
 * the two generations' rows are never held side by side.
 */
export class RowCacheBuilder {
  /** The rows derived in this run. */
  readonly own = new RowColumns();
  readonly sources: SourceRows[] = [];
  private readonly stringIndex = new Map<string, number>();
  readonly strings: string[] = [];
  /** Rows of the generation, replayed and derived. */
  length = 0;
  /**
   * With a live cache: per row, the live row it replays (>= 0) or `~i` for the i-th own row; and each row's
   * version. Without one (a full run) every row is own: row r is own row r.
   */
  private order: Int32Array | undefined;
  private versions: Float64Array | undefined;

  /** `from`: the live cache an update replays (its strings are this one's first, with the same indexes). */
  constructor(readonly from?: RowCache) {
    if (!from) return;
    for (const text of from.strings) this.intern(text);
    this.order = new Int32Array(1024);
    this.versions = new Float64Array(1024);
  }

  /** Room for `rows` more rows, `own` of them derived (sized once: no doubling over millions of rows). */
  reserve(rows: number, own = rows): void {
    this.own.reserve(own);
    if (this.order && this.versions && this.length + rows > this.order.length) this.grow(this.length + rows);
  }

  private grow(rows: number): void {
    const order = new Int32Array(rows);
    order.set(this.order as Int32Array);
    const versions = new Float64Array(rows);
    versions.set(this.versions as Float64Array);
    [this.order, this.versions] = [order, versions];
  }

  private next(ownRow: number): number {
    const r = this.length++;
    if (!this.order) return r;
    if (r === this.order.length) this.grow(2 * r);
    this.order[r] = ~ownRow;
    return r;
  }

  intern(text: string): number {
    let i = this.stringIndex.get(text);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(text);
      this.stringIndex.set(text, i);
    }
    return i;
  }

  beginSource(file: string, headerHi: number, headerLo: number): SourceRows {
    const source: SourceRows = {
      file,
      headerHi,
      headerLo,
      first: this.length,
      count: 0,
    };
    this.sources.push(source);
    return source;
  }

  addRecord(source: SourceRows, hi: number, lo: number, data: RowData, joined: boolean): number {
    const c = this.own;
    const o = c.next();
    c.hi[o] = hi;
    c.lo[o] = lo;
    c.kind[o] = ROW_RECORD;
    c.joined[o] = joined ? 1 : 0;
    c.lat[o] = data.lat;
    c.lon[o] = data.lon;
    for (const [j, name] of ROW_STRINGS.entries()) c.strings[STRINGS_PER_ROW * o + j] = this.intern(data[name]);
    source.count++;
    return this.next(o);
  }

  /** A row of the live cache this builder was made from, replayed with a new version. */
  replayRecord(source: SourceRows, liveRow: number, version: number): number {
    const order = this.order;
    if (!order) throw new Error('no live row cache to replay from');
    const r = this.length++;
    if (r === order.length) this.grow(2 * r);
    (this.order as Int32Array)[r] = liveRow;
    (this.versions as Float64Array)[r] = version;
    source.count++;
    return r;
  }

  /** The document a row produced, as the loader digested it (a row whose id is not a UUID is not replayed). */
  setDocument(r: number, id: string, digest: string, version: number | undefined): void {
    const c = this.own;
    const o = this.order ? ~(this.order[r] as number) : r;
    if (this.versions) this.versions[r] = version ?? 0;
    if (!UUID_RE.test(id)) {
      c.kind[o] = ROW_UNREPLAYABLE;
      return;
    }
    c.doc[4 * o] = hexWord(id, 0);
    c.doc[4 * o + 1] = hexWord(id.slice(9, 13) + id.slice(14, 18), 0);
    c.doc[4 * o + 2] = hexWord(id.slice(19, 23) + id.slice(24, 28), 0);
    c.doc[4 * o + 3] = hexWord(id, 28);
    c.docDigest[2 * o] = hexWord(digest, 0);
    c.docDigest[2 * o + 1] = hexWord(digest, 8);
    c.version[o] = version ?? 0;
  }

  /**
   * Rows [first, first + count) of one column as the file holds them: a view of the own rows' values (a full run),
   * or a copy taking a replayed row's values from its live row, with its new version.
   */
  columnChunk(name: RowColumnName, width: number, first: number, count: number): RowColumnArray {
    const own = this.own[name];
    const order = this.order;
    if (!order) return own.subarray(first * width, (first + count) * width);
    const out = new (own.constructor as new (n: number) => RowColumnArray)(count * width);
    if (name === 'version') {
      out.set((this.versions as Float64Array).subarray(first, first + count));
      return out;
    }
    const live = (this.from as RowCache).columns[name];
    for (let i = 0; i < count; i++) {
      const k = order[first + i] as number;
      const [column, at] = k >= 0 ? [live, k * width] : [own, ~k * width];
      for (let j = 0; j < width; j++) out[i * width + j] = column[at + j] as number;
    }
    return out;
  }
}
