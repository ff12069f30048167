/**
 * The live generation's documents of one kind, as id -> content digest, held compactly: a UUID id as four 32-bit
 * words and its digest as two (about 45 bytes per document with the hash slots, against ~200 for a Map of
 * strings), so the bulk data's 2.28 M addresses take ~100 MB. Ids that are not UUIDs (postcode places) are kept
 * as strings. Pure.
 */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMPTY = -1;

function word(text: string): number {
  return Number.parseInt(text, 16) >>> 0;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

export class DigestTable {
  private readonly keys: Uint32Array;
  private readonly digests: Uint32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Dense index -> id, for ids that are not UUIDs. */
  private readonly otherIds = new Map<number, string>();
  private readonly others = new Map<string, number>();
  private count = 0;

  constructor(readonly capacity: number) {
    this.keys = new Uint32Array(Math.max(1, capacity) * 4);
    this.digests = new Uint32Array(Math.max(1, capacity) * 2);
    let size = 16;
    while (size < capacity / 0.7) size *= 2;
    this.slots = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds a live document; a second add of one id keeps the first. */
  add(id: string, digest: string): void {
    if (this.count >= this.capacity) throw new Error(`digest table full (${this.capacity})`);
    if (this.indexOf(id) !== EMPTY) return;
    const i = this.count++;
    this.digests[2 * i] = word(digest.slice(0, 8));
    this.digests[2 * i + 1] = word(digest.slice(8, 16));
    if (!UUID_RE.test(id)) {
      this.others.set(id, i);
      this.otherIds.set(i, id);
      return;
    }
    const k = this.keys;
    k[4 * i] = word(id.slice(0, 8));
    k[4 * i + 1] = word(id.slice(9, 13) + id.slice(14, 18));
    k[4 * i + 2] = word(id.slice(19, 23) + id.slice(24, 28));
    k[4 * i + 3] = word(id.slice(28, 36));
    let slot = (k[4 * i] as number) & this.mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.slots[slot] = i;
  }

  /**
   * Adds a live document by its UUID's four 32-bit words and its digest's two (a row cache, indexer/rows/, holds them
   * so); returns its dense index, or the index it already had (its digest then left as it was: setDigest).
   */
  addWords(words: ArrayLike<number>, at: number, dhi: number, dlo: number): number {
    const k = this.keys;
    const [a, b, c, d] = [
      words[at] as number,
      words[at + 1] as number,
      words[at + 2] as number,
      words[at + 3] as number,
    ];
    let slot = a & this.mask;
    for (; ; slot = (slot + 1) & this.mask) {
      const i = this.slots[slot] as number;
      if (i === EMPTY) break;
      if (k[4 * i] === a && k[4 * i + 1] === b && k[4 * i + 2] === c && k[4 * i + 3] === d) return i;
    }
    if (this.count >= this.capacity) throw new Error(`digest table full (${this.capacity})`);
    const i = this.count++;
    k[4 * i] = a;
    k[4 * i + 1] = b;
    k[4 * i + 2] = c;
    k[4 * i + 3] = d;
    this.digests[2 * i] = dhi;
    this.digests[2 * i + 1] = dlo;
    this.slots[slot] = i;
    return i;
  }

  setDigest(i: number, dhi: number, dlo: number): void {
    this.digests[2 * i] = dhi;
    this.digests[2 * i + 1] = dlo;
  }

  /** The document's dense index (0 .. size-1), or -1 when the live generation does not have it. */
  indexOf(id: string): number {
    if (!UUID_RE.test(id)) return this.others.get(id) ?? EMPTY;
    const a = word(id.slice(0, 8));
    const b = word(id.slice(9, 13) + id.slice(14, 18));
    const c = word(id.slice(19, 23) + id.slice(24, 28));
    const d = word(id.slice(28, 36));
    const k = this.keys;
    for (let slot = a & this.mask; ; slot = (slot + 1) & this.mask) {
      const i = this.slots[slot] as number;
      if (i === EMPTY) return EMPTY;
      if (k[4 * i] === a && k[4 * i + 1] === b && k[4 * i + 2] === c && k[4 * i + 3] === d) return i;
    }
  }

  digestEquals(i: number, digest: string): boolean {
    return this.digests[2 * i] === word(digest.slice(0, 8)) && this.digests[2 * i + 1] === word(digest.slice(8, 16));
  }

  idAt(i: number): string {
    const other = this.otherIds.get(i);
    if (other !== undefined) return other;
    const [a, b, c, d] = [0, 1, 2, 3].map((j) => hex(this.keys[4 * i + j] as number)) as [
      string,
      string,
      string,
      string,
    ];
    return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
  }
}
