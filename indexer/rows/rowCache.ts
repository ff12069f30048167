/**
 * The address rows of one generation as `update` replays them (rowReplay.ts): per row of each CSV address source, the
 * digest of its raw bytes and everything the run took from it besides its document: the street, city and parent
 * fields the streets, places and derived cities accumulate (interned: one string per distinct combination), its
 * postcode, point, the id, digest and version of the document it produced. A row whose digest the next snapshot
 * still holds is replayed from here instead of being parsed, joined and derived again. Columns in typed arrays
 * (about 80 bytes a row). Pure; the file is rowCacheFile.ts, the rows being written rowCacheBuilder.ts.
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

const hex = (n: number) => n.toString(16).padStart(8, '0');

/** Growable typed columns, one value (or `width` values) per row. */
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
