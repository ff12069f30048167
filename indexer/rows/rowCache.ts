/**
 * The address rows of one generation as `update` replays them (rowReplay.ts): per row of each CSV address source, the
 * digest of its raw bytes and everything the run took from it besides its document: the street, city and parent
 * fields the streets, places and derived cities accumulate (interned: one string per distinct combination), its
 * postcode, point, the id, digest and version of the document it produced. A row whose digest the next snapshot
 * still holds is replayed from here instead of being parsed, joined and derived again. Columns in typed arrays
 * (about 80 bytes a row). Pure; the file is rowCacheFile.ts.
 */

/** What a replayed row contributes besides its raw digest (its document's own fields are not kept). */
export interface RowData {
  /** JSON of the fields shared by the rows of one street (rowReplay.ts decides which). */
  group: string;
  /** JSON of [postcode, postcode_key]. */
  postcode: string;
  suburb: string;
  building: string;
  /** The city id the row's address ended with (a derived city assigned): rows of a folded city are read again. */
  city: string;
  lat: number;
  lon: number;
}

/** The interned strings of a row, in this order. */
export const ROW_STRINGS = ['group', 'postcode', 'suburb', 'building', 'city'] as const;
export const STRINGS_PER_ROW = ROW_STRINGS.length;
export type RowString = (typeof ROW_STRINGS)[number];

export const ROW_RECORD = 1;
/** A record whose document id is not a UUID: never replayed (read the full way). */
export const ROW_UNREPLAYABLE = 0;

export interface SourceRows {
  /** The source's file (absolute). */
  file: string;
  headerHi: number;
  headerLo: number;
  /** Rows of this source: [first, first + count). */
  first: number;
  count: number;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function hexWord(text: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 8; i++) {
    const c = text.charCodeAt(i);
    n = (n << 4) | (c <= 57 ? c - 48 : c - 87);
  }
  return n >>> 0;
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

/** Growable typed columns; `freeze()` trims them for writing. */
export class RowColumns {
  length = 0;
  hi = new Uint32Array(1024);
  lo = new Uint32Array(1024);
  kind = new Uint8Array(1024);
  joined = new Uint8Array(1024);
  lat = new Float64Array(1024);
  lon = new Float64Array(1024);
  strings = new Uint32Array(1024 * STRINGS_PER_ROW);
  doc = new Uint32Array(1024 * 4);
  docDigest = new Uint32Array(1024 * 2);
  version = new Float64Array(1024);

  /** Room for `more` rows beyond those held (sized once from the raw records: no doubling over millions of rows). */
  reserve(more: number): void {
    if (this.length + more > this.hi.length) this.grow(this.length + more);
  }

  private grow(rows = this.hi.length * 2): void {
    const held = this.hi.length;
    const bigger = <T extends Uint32Array | Uint8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)((a.length / held) * rows);
      b.set(a);
      return b;
    };
    this.hi = bigger(this.hi);
    this.lo = bigger(this.lo);
    this.kind = bigger(this.kind);
    this.joined = bigger(this.joined);
    this.lat = bigger(this.lat);
    this.lon = bigger(this.lon);
    this.strings = bigger(this.strings);
    this.doc = bigger(this.doc);
    this.docDigest = bigger(this.docDigest);
    this.version = bigger(this.version);
  }

  next(): number {
    if (this.length === this.hi.length) this.grow();
    return this.length++;
  }
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
    (this.order as Int32Array)[r] = ~ownRow;
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

export type RowColumnName = Exclude<keyof RowColumns, 'length' | 'reserve' | 'next'>;
export type RowColumnArray = Uint32Array | Uint8Array | Float64Array;

/** A generation's rows as read back: looked up by raw digest, each taken at most once. */
export class RowCache {
  private slots: Int32Array;
  private readonly mask: number;
  private taken: Uint8Array;

  constructor(
    readonly columns: Omit<RowColumns, 'next'>,
    readonly sources: readonly SourceRows[],
    readonly strings: readonly string[],
  ) {
    const n = columns.length;
    let size = 16;
    while (size < n / 0.6) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(-1);
    this.taken = new Uint8Array(n);
    for (let r = 0; r < n; r++) {
      if (columns.kind[r] === ROW_UNREPLAYABLE) continue;
      let slot = ((columns.hi[r] as number) ^ (columns.lo[r] as number)) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = r;
    }
  }

  get size(): number {
    return this.columns.length;
  }

  /** The first row not yet taken with this raw digest (marked taken), or -1. */
  take(hi: number, lo: number): number {
    const c = this.columns;
    for (let slot = (hi ^ lo) & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = this.slots[slot] as number;
      if (r === -1) return -1;
      if (c.hi[r] === hi && c.lo[r] === lo && !this.taken[r]) {
        this.taken[r] = 1;
        return r;
      }
    }
  }

  string(r: number, name: RowString): string {
    return this.strings[this.columns.strings[STRINGS_PER_ROW * r + ROW_STRINGS.indexOf(name)] as number] as string;
  }

  docId(r: number): string {
    const d = this.columns.doc;
    const [a, b, c, e] = [
      hex(d[4 * r] as number),
      hex(d[4 * r + 1] as number),
      hex(d[4 * r + 2] as number),
      hex(d[4 * r + 3] as number),
    ];
    return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${e}`;
  }

  docDigest(r: number): string {
    const d = this.columns.docDigest;
    return hex(d[2 * r] as number) + hex(d[2 * r + 1] as number);
  }

  /** Lets go of the lookup by digest (~9 bytes a row) once the new snapshot is planned: no row is taken after. */
  doneTaking(): void {
    this.slots = new Int32Array(1).fill(-1);
    this.taken = new Uint8Array(0);
  }

  /** Whether row r was taken by the new snapshot. */
  wasTaken(r: number): boolean {
    return this.taken[r] === 1;
  }

  replayable(r: number): boolean {
    return this.columns.kind[r] === ROW_RECORD;
  }
}
