/**
 * Where the documents a bulk load sent most recently came from (file and position), so a document Elasticsearch
 * refuses can be reported with the line it came from (bulkLoader.ts).
 */
const POSITION_SPAN = 1e10;

/**
 * Remembers the origin of the most recent documents only: a refused document is always among the
 * requests in flight, so memory stays bounded however long the stream is. A ring of the last `capacity` ids and
 * their packed origins, written per document without hashing anything; only a lookup (a refused document, rare)
 * indexes the ring, and only the part written since the previous lookup (a Map.set per document cost about 3 % of
 * the address phase's main thread, for answers almost never asked).
 */
export class RecentOrigins {
  private readonly ids: (string | undefined)[];
  // origin and position packed into one number: no per-entry array allocation.
  private readonly packed: Float64Array;
  /** Documents remembered so far; the last `capacity` of them are in the ring. */
  private written = 0;
  /** id -> sequence number, for the documents written before `indexed` (checked against the ring on use). */
  private readonly index = new Map<string, number>();
  private indexed = 0;

  constructor(private readonly capacity: number) {
    this.ids = new Array<string | undefined>(capacity);
    this.packed = new Float64Array(capacity);
  }

  remember(id: string, origin: number, position: number): void {
    const slot = this.written % this.capacity;
    this.ids[slot] = id;
    this.packed[slot] = origin * POSITION_SPAN + position;
    this.written++;
  }

  lookup(id: string): [number, number] | undefined {
    this.catchUp();
    const sequence = this.index.get(id);
    if (sequence === undefined || sequence < this.written - this.capacity) return undefined;
    const slot = sequence % this.capacity;
    if (this.ids[slot] !== id) return undefined;
    const packed = this.packed[slot] as number;
    return [Math.floor(packed / POSITION_SPAN), packed % POSITION_SPAN];
  }

  /** Indexes what was written since the last lookup (at most the ring), starting afresh before the map outgrows it. */
  private catchUp(): void {
    const oldest = Math.max(0, this.written - this.capacity);
    let from = Math.max(this.indexed, oldest);
    if (this.index.size + (this.written - from) > 2 * this.capacity) {
      this.index.clear();
      from = oldest;
    }
    for (let sequence = from; sequence < this.written; sequence++) {
      this.index.set(this.ids[sequence % this.capacity] as string, sequence);
    }
    this.indexed = this.written;
  }
}
