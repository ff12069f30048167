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

/** One generation's rows being written (by a full run or an update). */
export class RowCacheBuilder {
  readonly columns = new RowColumns();
  readonly sources: SourceRows[] = [];
  private readonly stringIndex = new Map<string, number>();
  readonly strings: string[] = [];

  /**
   * The strings of the cache an update replays, which this one starts with (a replayed row copies its indexes). Only
   * the strings are held, not that cache: its columns are let go once its rows are replayed.
   */
  private readonly fromStrings: readonly string[] | undefined;

  constructor(from?: RowCache) {
    this.fromStrings = from?.strings;
    if (!from) return;
    for (const text of from.strings) this.intern(text);
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
      first: this.columns.length,
      count: 0,
    };
    this.sources.push(source);
    return source;
  }

  addRecord(source: SourceRows, hi: number, lo: number, data: RowData, joined: boolean): number {
    const c = this.columns;
    const r = c.next();
    c.hi[r] = hi;
    c.lo[r] = lo;
    c.kind[r] = ROW_RECORD;
    c.joined[r] = joined ? 1 : 0;
    c.lat[r] = data.lat;
    c.lon[r] = data.lon;
    for (const [j, name] of ROW_STRINGS.entries()) c.strings[STRINGS_PER_ROW * r + j] = this.intern(data[name]);
    source.count++;
    return r;
  }

  /** A replayed row copied over from the cache it came from (its strings re-interned here). */
  copyRecord(source: SourceRows, from: RowCache, i: number, version: number): number {
    const c = this.columns;
    const f = from.columns;
    const r = c.next();
    c.hi[r] = f.hi[i] as number;
    c.lo[r] = f.lo[i] as number;
    c.kind[r] = f.kind[i] as number;
    c.joined[r] = f.joined[i] as number;
    c.lat[r] = f.lat[i] as number;
    c.lon[r] = f.lon[i] as number;
    const shared = from.strings === this.fromStrings;
    for (let j = 0; j < STRINGS_PER_ROW; j++) {
      const k = f.strings[STRINGS_PER_ROW * i + j] as number;
      c.strings[STRINGS_PER_ROW * r + j] = shared ? k : this.intern(from.strings[k] as string);
    }
    for (let j = 0; j < 6; j++) {
      if (j < 4) c.doc[4 * r + j] = f.doc[4 * i + j] as number;
      if (j < 2) c.docDigest[2 * r + j] = f.docDigest[2 * i + j] as number;
    }
    c.version[r] = version;
    source.count++;
    return r;
  }

  /** The document a row produced, as the loader digested it (a row whose id is not a UUID is not replayed). */
  setDocument(r: number, id: string, digest: string, version: number | undefined): void {
    const c = this.columns;
    if (!UUID_RE.test(id)) {
      c.kind[r] = ROW_UNREPLAYABLE;
      return;
    }
    c.doc[4 * r] = hexWord(id, 0);
    c.doc[4 * r + 1] = hexWord(id.slice(9, 13) + id.slice(14, 18), 0);
    c.doc[4 * r + 2] = hexWord(id.slice(19, 23) + id.slice(24, 28), 0);
    c.doc[4 * r + 3] = hexWord(id, 28);
    c.docDigest[2 * r] = hexWord(digest, 0);
    c.docDigest[2 * r + 1] = hexWord(digest, 8);
    c.version[r] = version ?? 0;
  }
}

/** A generation's rows as read back: looked up by raw digest, each taken at most once. */
export class RowCache {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly taken: Uint8Array;

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

  /** Whether row r was taken by the new snapshot. */
  wasTaken(r: number): boolean {
    return this.taken[r] === 1;
  }

  replayable(r: number): boolean {
    return this.columns.kind[r] === ROW_RECORD;
  }
}
