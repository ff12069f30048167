/**
 * One generation's seeded tiles (pure): the compressed bytes of each tile that holds something, kept in the batches
 * the worker sent (kept as received), and per tile where its encodings are in them. Per tile the index costs a Map
 * entry and three or four numbers (~70 bytes), not a Buffer object per encoding.
 */
import type { StoredEncoding } from './seedCut.js';
import type { SeedBatch } from './seedMessages.js';

export class SeedStore {
  private readonly entries = new Map<number, number>();
  private readonly chunks: Buffer[] = [];
  /** Per entry: its batch, the offset of its first encoding, then each encoding's length. */
  private readonly layout: number[] = [];
  private bytes = 0;

  constructor(readonly encodings: readonly StoredEncoding[]) {}

  /**
   * Keeps the batch's tiles, as many of them as fit in `maxBytes` in all (every encoding of a tile, or none of it);
   * false when some did not fit (the store is full: nothing more is to be added).
   */
  add({ keys, lengths, data }: SeedBatch, maxBytes = Infinity): boolean {
    const n = this.encodings.length;
    const room = maxBytes - this.bytes;
    let fitting = 0;
    let fittingBytes = 0;
    for (; fitting < keys.length; fitting++) {
      let tileBytes = 0;
      for (let e = 0; e < n; e++) tileBytes += lengths[fitting * n + e]!;
      if (fittingBytes + tileBytes > room) break;
      fittingBytes += tileBytes;
    }
    if (fitting > 0) {
      const chunk = this.chunks.length;
      // A part of the batch is copied out, so that the store holds no more than its bytes.
      this.chunks.push(
        fitting === keys.length ? Buffer.from(data) : Buffer.from(new Uint8Array(data, 0, fittingBytes)),
      );
      this.bytes += fittingBytes;
      let offset = 0;
      for (let i = 0; i < fitting; i++) {
        this.entries.set(keys[i]!, this.layout.length);
        this.layout.push(chunk, offset);
        for (let e = 0; e < n; e++) {
          const length = lengths[i * n + e]!;
          this.layout.push(length);
          offset += length;
        }
      }
    }
    return fitting === keys.length;
  }

  /** The tile's bytes per encoding; undefined: not stored (empty, or not seeded yet). */
  get(key: number): Partial<Record<StoredEncoding, Buffer>> | undefined {
    const at = this.entries.get(key);
    if (at === undefined) return undefined;
    const chunk = this.chunks[this.layout[at]!]!;
    let offset = this.layout[at + 1]!;
    const encoded: Partial<Record<StoredEncoding, Buffer>> = {};
    this.encodings.forEach((encoding, e) => {
      const length = this.layout[at + 2 + e]!;
      encoded[encoding] = chunk.subarray(offset, offset + length);
      offset += length;
    });
    return encoded;
  }

  get size(): { tiles: number; bytes: number } {
    return { tiles: this.entries.size, bytes: this.bytes };
  }
}
