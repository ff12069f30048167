/**
 * A CSV file's records as raw bytes with a 64-bit digest each, without parsing them: what tells `update` which rows
 * of a new snapshot it has seen before (rowPlan.ts), and what a full run keeps beside each row. Records end at a
 * newline outside quotes (RFC 4180, as csv-parse reads a well-formed file): a line with an odd count of quotes runs
 * on to the next. Blank lines are skipped as csv-parse skips them. The header (line 1) is kept apart. A quote never
 * closed is reported: the caller then reads the file the full way. Streamed (`.gz` gunzipped on the fly): memory
 * holds one chunk, whatever the file's size.
 */
import { openFile } from '../sources/open.js';

const NEWLINE = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * One record: its first physical line, how many it covers, where its bytes are (`buf` from `start` to `end`, valid
 * during the call only: copy what is kept), its digest, and the file's header line.
 */
export type RawRecordSink = (
  line: number,
  lines: number,
  buf: Buffer,
  start: number,
  end: number,
  hi: number,
  lo: number,
  header: Buffer,
) => void;

export interface RawCsvScan {
  /** The header's bytes (its line break dropped). */
  header: Buffer;
  /** Records passed to the sink. */
  count: number;
  /** Physical lines of the file. */
  physicalLines: number;
  /** A quote opened and never closed before the end: the split cannot be trusted. */
  unclosedQuote: boolean;
}

/** The last digest computed (one object reused: no allocation per record). */
const digest = { hi: 0, lo: 0 };

/**
 * FNV-1a (32 bits) and a second, differently mixed multiplicative hash over the same bytes: 64 bits together. The
 * returned object is reused by the next call: read it at once.
 */
export function digestBytes(
  bytes: Uint8Array,
  from = 0,
  to = bytes.length,
): { readonly hi: number; readonly lo: number } {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  digest.hi = a >>> 0;
  digest.lo = b >>> 0;
  return digest;
}

function countIn(buf: Buffer, byte: number, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(byte, from); i !== -1 && i < to; i = buf.indexOf(byte, i + 1)) n++;
  return n;
}

/** Pure: splits CSV bytes pushed in chunks of any size into records. */
export class RawCsvSplitter {
  private rest: Buffer = Buffer.alloc(0);
  private line = 1;
  private headerSeen = false;
  readonly scan: RawCsvScan = { header: Buffer.alloc(0), count: 0, physicalLines: 0, unclosedQuote: false };

  constructor(private readonly sink: RawRecordSink) {}

  push(chunk: Buffer): void {
    const buf = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    let scanFrom = 0;
    let quotes = 0;
    let lines = 1;
    // The next quote at or after scanFrom (found once, not per line: most lines hold none).
    let quote = buf.indexOf(QUOTE);
    for (;;) {
      const nl = buf.indexOf(NEWLINE, scanFrom);
      if (nl === -1) break;
      while (quote !== -1 && quote < nl) {
        quotes++;
        quote = buf.indexOf(QUOTE, quote + 1);
      }
      if (quotes % 2 === 1) {
        lines++;
        scanFrom = nl + 1;
        continue;
      }
      this.emit(buf, start, nl, lines);
      start = scanFrom = nl + 1;
      quotes = 0;
      lines = 1;
    }
    this.rest = Buffer.from(buf.subarray(start));
  }

  end(): RawCsvScan {
    const rest = this.rest;
    if (rest.length) {
      if (countIn(rest, QUOTE, 0, rest.length) % 2 === 1) this.scan.unclosedQuote = true;
      else this.emit(rest, 0, rest.length, countIn(rest, NEWLINE, 0, rest.length) + 1);
    }
    this.scan.physicalLines = this.line - 1;
    return this.scan;
  }

  private emit(buf: Buffer, from: number, to: number, lines: number): void {
    const first = this.line;
    this.line += lines;
    if (to > from && buf[to - 1] === CR) to--;
    if (!this.headerSeen) {
      this.headerSeen = true;
      this.scan.header = Buffer.from(buf.subarray(from, to));
      return;
    }
    if (to === from && lines === 1) return;
    this.scan.count++;
    const { hi, lo } = digestBytes(buf, from, to);
    this.sink(first, lines, buf, from, to, hi, lo, this.scan.header);
  }
}

/** Pure: the records of whole CSV bytes. */
export function splitRawCsv(bytes: Buffer, sink: RawRecordSink): RawCsvScan {
  const splitter = new RawCsvSplitter(sink);
  splitter.push(bytes);
  return splitter.end();
}

/** Streams a CSV file (`.gz` gunzipped on the fly) through the splitter. */
export async function scanRawCsv(path: string, sink: RawRecordSink): Promise<RawCsvScan> {
  const opened = await openFile(path);
  const splitter = new RawCsvSplitter(sink);
  try {
    for await (const chunk of opened.output as AsyncIterable<Buffer>) splitter.push(chunk);
  } finally {
    opened.destroy();
  }
  return splitter.end();
}

/** Per record: first line and digest, in file order (what a full run aligns its parsed records with). */
export interface RawDigests {
  scan: RawCsvScan;
  line: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
}

export async function rawDigests(path: string): Promise<RawDigests> {
  let line = new Uint32Array(1 << 16);
  let hi = new Uint32Array(1 << 16);
  let lo = new Uint32Array(1 << 16);
  let n = 0;
  const scan = await scanRawCsv(path, (first, _lines, _buf, _start, _end, h, l) => {
    if (n === line.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      [line, hi, lo] = [grow(line), grow(hi), grow(lo)];
    }
    line[n] = first;
    hi[n] = h;
    lo[n] = l;
    n++;
  });
  return { scan, line: line.subarray(0, n), hi: hi.subarray(0, n), lo: lo.subarray(0, n) };
}
