/**
 * A CSV file's records as raw byte ranges with a 64-bit digest each, without parsing them: what tells `update` which
 * rows of a new snapshot it has seen before (rowPlan.ts), and what a full run keeps beside each row. Records end at
 * a newline outside quotes (RFC 4180, as csv-parse reads a well-formed file): a line with an odd count of quotes runs
 * on to the next. Blank lines are skipped as csv-parse skips them. The header (line 1) is kept apart. A quote never
 * closed is reported: the caller then reads the file the full way. Pure apart from readRawCsv.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const NEWLINE = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

export interface RawCsv {
  /** The whole file, gunzipped. */
  bytes: Buffer;
  /** The header's bytes (its line break dropped). */
  header: Buffer;
  count: number;
  /** Per record: first physical line (1-based), physical lines, byte range [start, end) without the line break. */
  line: Uint32Array;
  lines: Uint32Array;
  start: Float64Array;
  end: Float64Array;
  /** Per record: the two 32-bit halves of its digest (digestBytes). */
  hi: Uint32Array;
  lo: Uint32Array;
  /** Physical lines of the file. */
  physicalLines: number;
  /** A quote opened and never closed before the end: the split cannot be trusted. */
  unclosedQuote: boolean;
}

/** FNV-1a (32 bits) and a second, differently mixed multiplicative hash over the same bytes: 64 bits together. */
export function digestBytes(bytes: Uint8Array, from = 0, to = bytes.length): { hi: number; lo: number } {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return { hi: a >>> 0, lo: b >>> 0 };
}

function countIn(buf: Buffer, byte: number, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(byte, from); i !== -1 && i < to; i = buf.indexOf(byte, i + 1)) n++;
  return n;
}

/** Pure: the records of a whole CSV text. */
export function splitRawCsv(bytes: Buffer): RawCsv {
  // Records <= lines: sized from the newline count, so nothing grows.
  const capacity = countIn(bytes, NEWLINE, 0, bytes.length) + 1;
  const out: RawCsv = {
    bytes,
    header: Buffer.alloc(0),
    count: 0,
    line: new Uint32Array(capacity),
    lines: new Uint32Array(capacity),
    start: new Float64Array(capacity),
    end: new Float64Array(capacity),
    hi: new Uint32Array(capacity),
    lo: new Uint32Array(capacity),
    physicalLines: 0,
    unclosedQuote: false,
  };
  let line = 1;
  let headerSeen = false;
  const emit = (from: number, to: number, lines: number) => {
    const first = line;
    line += lines;
    if (to > from && bytes[to - 1] === CR) to--;
    if (!headerSeen) {
      headerSeen = true;
      out.header = bytes.subarray(from, to);
      return;
    }
    if (to === from && lines === 1) return;
    const r = out.count++;
    out.line[r] = first;
    out.lines[r] = lines;
    out.start[r] = from;
    out.end[r] = to;
    const { hi, lo } = digestBytes(bytes, from, to);
    out.hi[r] = hi;
    out.lo[r] = lo;
  };
  let start = 0;
  let scanFrom = 0;
  let quotes = 0;
  let lines = 1;
  for (;;) {
    const nl = bytes.indexOf(NEWLINE, scanFrom);
    if (nl === -1) break;
    quotes += countIn(bytes, QUOTE, scanFrom, nl);
    if (quotes % 2 === 1) {
      lines++;
      scanFrom = nl + 1;
      continue;
    }
    emit(start, nl, lines);
    start = scanFrom = nl + 1;
    quotes = 0;
    lines = 1;
  }
  if (start < bytes.length) {
    quotes += countIn(bytes, QUOTE, scanFrom, bytes.length);
    if (quotes % 2 === 1) out.unclosedQuote = true;
    else emit(start, bytes.length, lines);
  }
  out.physicalLines = line - 1 + (out.unclosedQuote ? lines : 0);
  return out;
}

/** A CSV file (`.gz` gunzipped) read whole and split into raw records. */
export async function readRawCsv(path: string): Promise<RawCsv> {
  const file = await readFile(path);
  const bytes = path.endsWith('.gz') ? await promisify(gunzip)(file) : file;
  return splitRawCsv(bytes);
}
