/**
 * Source bytes → checked UTF-8 text, counted in lines. UTF-8 (the default) is validated, never decoded here:
 * the bytes pass through unchanged (the parsers decode them anyway), so the check costs one native scan per
 * chunk. Any other encoding (`encoding` on a source in the manifest) is transcoded to UTF-8 by iconv-lite. A
 * byte-order mark is dropped in both cases, so parsers and byte offsets never see it.
 */
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';
import { isUtf8Name } from '../base/encodingNames.js';
import { SourceFileError } from './types.js';

export const DEFAULT_ENCODING = 'utf-8';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const NEWLINE = 0x0a;

/**
 * Absolute offsets of the newlines the decoder has passed on and the parser has not yet consumed, so a
 * parser's byte position becomes a physical line without holding the whole file's line table.
 */
export class LineIndex {
  // A queue in one typed array (head..tail): no object per line, compacted in place as the parser catches up.
  private offsets = new Float64Array(1 << 16);
  private head = 0;
  private tail = 0;
  private passed = 0;

  add(offset: number): void {
    if (this.tail === this.offsets.length) {
      if (this.head > 0) {
        this.offsets.copyWithin(0, this.head, this.tail);
        this.tail -= this.head;
        this.head = 0;
      } else {
        const grown = new Float64Array(this.offsets.length * 2);
        grown.set(this.offsets);
        this.offsets = grown;
      }
    }
    this.offsets[this.tail++] = offset;
  }

  /** The 1-based physical line holding the byte at `offset`; offsets must not decrease between calls. */
  lineAt(offset: number): number {
    const offsets = this.offsets;
    let head = this.head;
    while (head < this.tail && (offsets[head] as number) < offset) head++;
    this.passed += head - this.head;
    this.head = head;
    return this.passed + 1;
  }
}

/** Where the decoder is in a file: what an error reports as "read so far". */
export interface TextPosition {
  /** UTF-8 bytes passed on (after transcoding, without a BOM). */
  bytes: number;
  /** Newlines passed on. */
  newlines: number;
  /** Whether the last byte passed on ended a line (for counting a last line without a newline). */
  endsWithNewline: boolean;
  encoding: string;
}

/** Physical lines of the text passed on so far (a last line without a newline counts). */
export function physicalLines(p: TextPosition): number {
  return p.newlines + (p.bytes > 0 && !p.endsWithNewline ? 1 : 0);
}

/** How many bytes at the end of `buf` begin a UTF-8 sequence the next chunk completes. */
function incompleteTail(buf: Buffer): number {
  for (let k = 1; k <= Math.min(3, buf.length); k++) {
    const b = buf[buf.length - k] as number;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/** Offset of the first byte that does not begin a valid UTF-8 sequence (only called once isUtf8 said no). */
export function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    const need =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (need === 0) return i;
    if (need > 1) {
      const second = buf[i + 1];
      if (second === undefined) return i;
      // The second byte's range rules out overlong forms, surrogates and code points above U+10FFFF.
      const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (second < low || second > high) return i;
      for (let k = 2; k < need; k++) {
        const c = buf[i + k];
        if (c === undefined || (c & 0xc0) !== 0x80) return i;
      }
    }
    i += need;
  }
  return buf.length;
}

function hexBytes(buf: Buffer): string {
  return [...buf].map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
}

/** Text on its way out: its newlines counted (and indexed when `lines` is given), its bytes added to the position. */
function passOn(out: Buffer, stream: Transform, position: TextPosition, lines: LineIndex | undefined): void {
  if (out.length === 0) return;
  const base = position.bytes;
  let i = out.indexOf(NEWLINE);
  while (i !== -1) {
    position.newlines++;
    lines?.add(base + i);
    i = out.indexOf(NEWLINE, i + 1);
  }
  position.bytes += out.length;
  position.endsWithNewline = out[out.length - 1] === NEWLINE;
  stream.push(out);
}

/** The error for invalid UTF-8 at `at` in `body`: the file, line and byte offset, and the manifest option to use. */
function invalidUtf8(file: string, position: TextPosition, body: Buffer, at: number, compressed: boolean) {
  let line = position.newlines + 1;
  for (let i = body.indexOf(NEWLINE); i !== -1 && i < at; i = body.indexOf(NEWLINE, i + 1)) line++;
  const where = `line ${line}, byte offset ${position.bytes + at}${compressed ? ' of the decompressed text' : ''}`;
  return new SourceFileError(
    file,
    `${file}: not valid UTF-8 at ${where} (${hexBytes(body.subarray(at, at + 4))}), after ${line - 1} complete ` +
      'lines. If the file is in another encoding, name it on this source in the manifest, e.g. ' +
      '"encoding": "windows-1252" (or "latin1", "iso-8859-15")',
  );
}

/**
 * A Transform from the file's bytes to UTF-8 bytes, counting newlines (into `lines` when given). Invalid
 * UTF-8 fails the stream with a SourceFileError naming the file, line and byte offset and the manifest option
 * to use instead.
 */
export function createTextDecoder(
  file: string,
  options: { encoding?: string | undefined; lines?: LineIndex | undefined; compressed?: boolean } = {},
): { stream: Transform; position: TextPosition } {
  const utf8 = isUtf8Name(options.encoding);
  const position: TextPosition = {
    bytes: 0,
    newlines: 0,
    endsWithNewline: false,
    encoding: utf8 ? DEFAULT_ENCODING : (options.encoding as string),
  };
  const lines = options.lines;
  const decoder = utf8 ? undefined : iconv.getDecoder(options.encoding as string);
  let carry: Buffer | undefined;
  let first = true;

  const pass = (out: Buffer, stream: Transform): void => passOn(out, stream, position, lines);
  const invalid = (body: Buffer, at: number): SourceFileError =>
    invalidUtf8(file, position, body, at, options.compressed ?? false);

  const stream = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      let data = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = undefined;
      if (first && data.length < 3) {
        // Too short to tell whether a BOM starts the file: wait for more.
        carry = Buffer.from(data);
        done();
        return;
      }
      if (first) {
        first = false;
        if (utf8 && UTF8_BOM.every((b, i) => data[i] === b)) data = data.subarray(3);
      }
      if (decoder) {
        pass(Buffer.from(decoder.write(data), 'utf8'), this);
        done();
        return;
      }
      const tail = incompleteTail(data);
      const body = tail ? data.subarray(0, data.length - tail) : data;
      if (tail) carry = Buffer.from(data.subarray(data.length - tail));
      if (!isUtf8(body)) {
        done(invalid(body, firstInvalidUtf8(body)));
        return;
      }
      pass(body, this);
      done();
    },
    flush(done: TransformCallback) {
      let rest = carry ?? Buffer.alloc(0);
      carry = undefined;
      if (first && utf8 && UTF8_BOM.every((b, i) => rest[i] === b)) rest = rest.subarray(3);
      if (decoder) {
        pass(Buffer.from(decoder.write(rest) + (decoder.end() ?? ''), 'utf8'), this);
        done();
        return;
      }
      if (!isUtf8(rest)) {
        done(invalid(rest, firstInvalidUtf8(rest)));
        return;
      }
      pass(rest, this);
      done();
    },
  });
  return { stream, position };
}
