/**
 * The protocol-buffer wire format, as far as the OSM PBF messages need it (pure): varints (up to 2^53, what OSM ids
 * and coordinates need), zigzag-signed varints, length-delimited fields and skipping unknown ones. Every read is
 * bounds-checked: a damaged message throws a ProtobufError instead of reading past its end.
 */

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

export const VARINT = 0;
export const FIXED64 = 1;
export const BYTES = 2;
export const FIXED32 = 5;

export class ProtoReader {
  pos: number;
  end: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint as a number (exact up to 2^53). */
  varint(): number {
    const buf = this.buf;
    let pos = this.pos;
    const end = this.end;
    if (pos >= end) throw new ProtobufError(`varint past the end of the message at byte ${pos}`);
    let b = buf[pos++] as number;
    if (b < 0x80) {
      this.pos = pos;
      return b;
    }
    let value = b & 0x7f;
    let shift = 7;
    // Bitwise while it fits 28 bits, then multiplication (bitwise operators cut at 32 bits).
    while (shift < 28) {
      if (pos >= end) throw new ProtobufError(`varint past the end of the message at byte ${pos}`);
      b = buf[pos++] as number;
      value |= (b & 0x7f) << shift;
      shift += 7;
      if (b < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    value >>>= 0;
    let factor = 2 ** 28;
    for (let i = 0; i < 6; i++) {
      if (pos >= end) throw new ProtobufError(`varint past the end of the message at byte ${pos}`);
      b = buf[pos++] as number;
      value += (b & 0x7f) * factor;
      factor *= 128;
      if (b < 0x80) {
        this.pos = pos;
        return value;
      }
    }
    throw new ProtobufError(`varint longer than 10 bytes at byte ${this.pos}`);
  }

  /** A zigzag-encoded signed varint (sint32, sint64). */
  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  }

  /**
   * A two's-complement int64/int32 varint read as a number: negative values take ten bytes and come out above
   * 2^63, which is never an OSM value; they are refused.
   */
  int(): number {
    const n = this.varint();
    if (n > Number.MAX_SAFE_INTEGER) throw new ProtobufError(`integer ${n} out of range at byte ${this.pos}`);
    return n;
  }

  /** The key of the next field: field number and wire type. */
  key(): { field: number; wire: number } {
    const k = this.varint();
    return { field: Math.floor(k / 8), wire: k & 7 };
  }

  /** The bounds of a length-delimited field's content; the reader moves past it. */
  bytes(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) {
      throw new ProtobufError(
        `field of ${length} bytes at byte ${start} runs past the end of its message (${this.end})`,
      );
    }
    this.pos = end;
    return [start, end];
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === BYTES) this.bytes();
    else if (wire === FIXED64) this.advance(8);
    else if (wire === FIXED32) this.advance(4);
    else throw new ProtobufError(`unknown wire type ${wire} at byte ${this.pos}`);
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ProtobufError(`fixed field past the end of the message at byte ${this.pos}`);
    this.pos += n;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A string field's UTF-8 content; invalid UTF-8 is damage, not text. */
export function utf8(buf: Uint8Array, start: number, end: number): string {
  try {
    return decoder.decode(buf.subarray(start, end));
  } catch {
    throw new ProtobufError(`invalid UTF-8 in a string at byte ${start}`);
  }
}

/**
 * Calls `each` for every value of a repeated varint field, packed (wire type 2: the usual form) or not (one value per
 * field occurrence): `wire` is the occurrence's wire type.
 */
export function forEachVarint(reader: ProtoReader, wire: number, each: (value: number) => void): void {
  if (wire === VARINT) {
    each(reader.varint());
    return;
  }
  if (wire !== BYTES) throw new ProtobufError(`repeated varint with wire type ${wire} at byte ${reader.pos}`);
  const [start, end] = reader.bytes();
  const inner = new ProtoReader(reader.buf, start, end);
  while (!inner.done) each(inner.varint());
}
