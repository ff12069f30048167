/**
 * A generation's row cache on disk (rowCache.ts): `<dir>/<prefix><generation>.rows`, one file per generation, written
 * to a temporary name and renamed (never half-written), deleted with its generation. Written in pieces of at most
 * about a megabyte besides the columns themselves, so that saving the cache at the end of a run holds no second copy
 * of what it saves (the run's peak memory falls there). Layout (format 4):
 * - a first line of `LINE_BYTES`: `geocoder-rows 4 <head bytes> <strings bytes> <memo entries>`, padded with spaces;
 * - the head, JSON: what the rows were made from, the sources, the row count;
 * - the interned strings, one JSON array;
 * - padding to 8 bytes, then each column's bytes in a fixed order, each padded to 8;
 * - the derivation memo (derivationMemo.ts): per entry its key's and its bytes' lengths (uint32 LE), then both.
 * Anything that does not read back as written is "no cache": `update` then reads the snapshot the full way.
 */
import { type FileHandle, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoEntries } from './derivationMemo.js';
import { RowCache, RowColumns, type SourceRows, STRINGS_PER_ROW } from './rowCache.js';
import type { RowCacheBuilder } from './rowCacheBuilder.js';

const MAGIC = 'geocoder-rows';
const FORMAT = 4;
const LINE_BYTES = 64;
/** How many bytes of small pieces (strings, memo lengths) are gathered before they go to the file. */
const PIECE_BYTES = 1 << 20;
/** Rows of a column gathered at a time (an update's replayed rows are taken from the live cache: rowCache.ts). */
const CHUNK_ROWS = 1 << 16;

/** What the rows were derived with: replayed only when the next run derives with the very same. */
export interface RowCacheHead {
  prefix: string;
  generation: string;
  /** Digest of the manifest, every source file but the address files, and the indexer's code (rowContext.ts). */
  context: string;
}

interface StoredHead extends RowCacheHead {
  sources: SourceRows[];
  rows: number;
}

const COLUMNS = ['hi', 'lo', 'kind', 'joined', 'lat', 'lon', 'strings', 'doc', 'docDigest', 'version'] as const;
const WIDTH: Record<(typeof COLUMNS)[number], number> = {
  hi: 1,
  lo: 1,
  kind: 1,
  joined: 1,
  lat: 1,
  lon: 1,
  strings: STRINGS_PER_ROW,
  doc: 4,
  docDigest: 2,
  version: 1,
};

const paddingTo8 = (n: number) => (8 - (n % 8)) % 8;

export function rowCachePath(dir: string, prefix: string, generation: string): string {
  return join(dir, `${prefix}${generation}.rows`);
}

/** Appends to a file from `LINE_BYTES` on, small pieces gathered into one write. */
class FileWriter {
  at = LINE_BYTES;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(private readonly handle: FileHandle) {}

  async put(bytes: Uint8Array): Promise<void> {
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    if (this.pendingBytes >= PIECE_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const total = pieces.reduce((sum, p) => sum + p.byteLength, 0);
    let written = (await this.handle.writev(pieces, this.at)).bytesWritten;
    // A short write (rare on a local file): the rest from one copy of this batch.
    if (written < total) {
      const all = Buffer.concat(pieces);
      while (written < total)
        written += (await this.handle.write(all, written, total - written, this.at + written)).bytesWritten;
    }
    this.at += total;
  }
}

/** The interned strings as one JSON array, written a batch at a time; returns its bytes. */
async function writeStrings(out: FileWriter, strings: readonly string[]): Promise<number> {
  let bytes = 0;
  const put = async (text: string) => {
    const chunk = Buffer.from(text);
    bytes += chunk.byteLength;
    await out.put(chunk);
  };
  await put('[');
  const batch = 4096;
  for (let i = 0; i < strings.length; i += batch) {
    const json = JSON.stringify(strings.slice(i, i + batch));
    await put((i ? ',' : '') + json.slice(1, -1));
  }
  await put(']');
  return bytes;
}

export async function writeRowCache(
  dir: string,
  head: RowCacheHead,
  rows: RowCacheBuilder,
  memo: MemoEntries = new Map(),
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = rowCachePath(dir, head.prefix, head.generation);
  const temporary = `${path}.${process.pid}.partial`;
  const handle = await open(temporary, 'w');
  try {
    const out = new FileWriter(handle);
    const stored: StoredHead = { ...head, sources: rows.sources, rows: rows.length };
    const headBytes = Buffer.from(JSON.stringify(stored));
    await out.put(headBytes);
    const stringBytes = await writeStrings(out, rows.strings);
    await out.put(Buffer.alloc(paddingTo8(LINE_BYTES + headBytes.byteLength + stringBytes)));
    for (const name of COLUMNS) {
      let bytes = 0;
      for (let first = 0; first < rows.length; first += CHUNK_ROWS) {
        const chunk = rows.columnChunk(name, WIDTH[name], first, Math.min(CHUNK_ROWS, rows.length - first));
        bytes += chunk.byteLength;
        await out.put(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      }
      await out.put(Buffer.alloc(paddingTo8(bytes)));
    }
    for (const [key, value] of memo) {
      const keyBytes = Buffer.from(key);
      const lengths = Buffer.alloc(8);
      lengths.writeUInt32LE(keyBytes.byteLength, 0);
      lengths.writeUInt32LE(value.byteLength, 4);
      await out.put(lengths);
      await out.put(keyBytes);
      await out.put(value);
    }
    await out.flush();
    const line = `${MAGIC} ${FORMAT} ${headBytes.byteLength} ${stringBytes} ${memo.size}`.padEnd(LINE_BYTES - 1);
    await handle.write(`${line}\n`, 0);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
  return path;
}

/** `length` bytes of the file from `at`, in an ArrayBuffer of their own (offset 0: typed arrays over it align). */
async function readAt(handle: FileHandle, at: number, length: number): Promise<ArrayBuffer> {
  const part = new ArrayBuffer(length);
  const view = new Uint8Array(part);
  for (let done = 0; done < length;) {
    const { bytesRead } = await handle.read(view, done, length - done, at + done);
    if (bytesRead === 0) throw new Error('truncated');
    done += bytesRead;
  }
  return part;
}

/** The memo's entries: views of one buffer (reused entries are written back as they are). */
function memoEntries(region: ArrayBuffer, count: number): MemoEntries | undefined {
  const bytes = Buffer.from(region);
  const memo: MemoEntries = new Map();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 8 > bytes.byteLength) return undefined;
    const keyLength = bytes.readUInt32LE(at);
    const valueLength = bytes.readUInt32LE(at + 4);
    at += 8;
    if (at + keyLength + valueLength > bytes.byteLength) return undefined;
    const key = bytes.toString('utf8', at, at + keyLength);
    at += keyLength;
    memo.set(key, new Uint8Array(region, at, valueLength));
    at += valueLength;
  }
  return at === bytes.byteLength ? memo : undefined;
}

type ReadRowCache = { head: RowCacheHead; cache: RowCache; memo: MemoEntries } | { missing: string };

/** The generation's rows, or undefined when there is no readable cache of it (with why, for the log). */
export async function readRowCache(dir: string, prefix: string, generation: string): Promise<ReadRowCache> {
  const path = rowCachePath(dir, prefix, generation);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    return { missing: `no row cache at ${path}` };
  }
  try {
    return await readOpen(handle, path, prefix, generation);
  } catch {
    return { missing: `${path} is truncated or unreadable` };
  } finally {
    await handle.close();
  }
}

async function readOpen(handle: FileHandle, path: string, prefix: string, generation: string): Promise<ReadRowCache> {
  const { size } = await handle.stat();
  if (size < LINE_BYTES) return { missing: `${path} is not a row cache of format ${FORMAT}` };
  const line = Buffer.from(await readAt(handle, 0, LINE_BYTES)).toString('latin1');
  const [magic, format, headText, stringsText, memoText] = line.trim().split(' ');
  if (magic !== MAGIC || Number(format) !== FORMAT || !line.endsWith('\n'))
    return { missing: `${path} is not a row cache of format ${FORMAT}` };
  const [headBytes, stringBytes, memoCount] = [Number(headText), Number(stringsText), Number(memoText)];
  if (![headBytes, stringBytes, memoCount].every((n) => Number.isSafeInteger(n) && n >= 0))
    return { missing: `${path}: unreadable first line` };
  let meta: StoredHead;
  let strings: string[];
  try {
    const text = Buffer.from(await readAt(handle, LINE_BYTES, headBytes + stringBytes));
    meta = JSON.parse(text.toString('utf8', 0, headBytes));
    strings = JSON.parse(text.toString('utf8', headBytes));
  } catch {
    return { missing: `${path}: unreadable head` };
  }
  if (meta.prefix !== prefix || meta.generation !== generation) return { missing: `${path} is another generation's` };
  let at = LINE_BYTES + headBytes + stringBytes;
  at += paddingTo8(at);
  const columns = new RowColumns();
  const n = meta.rows;
  const layout = COLUMNS.map((name) => {
    const Type = columns[name].constructor as Uint32ArrayConstructor | Uint8ArrayConstructor | Float64ArrayConstructor;
    const count = n * WIDTH[name];
    const byteLength = count * Type.BYTES_PER_ELEMENT;
    return { name, Type, count, byteLength, padded: byteLength + paddingTo8(byteLength) };
  });
  const columnBytes = layout.reduce((sum, l) => sum + l.padded, 0);
  if (at + columnBytes > size) return { missing: `${path} is truncated` };
  // One buffer for every column, read from an 8-byte aligned offset of the file: each column a view of it.
  const block = await readAt(handle, at, columnBytes);
  let offset = 0;
  for (const { name, Type, count, padded } of layout) {
    (columns as unknown as Record<string, unknown>)[name] = new Type(block, offset, count);
    offset += padded;
  }
  columns.length = n;
  at += columnBytes;
  const memo = memoEntries(await readAt(handle, at, size - at), memoCount);
  if (!memo) return { missing: `${path}: unreadable derivation memo` };
  return {
    head: { prefix: meta.prefix, generation: meta.generation, context: meta.context },
    cache: new RowCache(columns, meta.sources, strings),
    memo,
  };
}

/** Deletes the row caches of `prefix` whose generation is not in `keep` (after a prune or a failed run). */
export async function pruneRowCaches(dir: string, prefix: string, keep: readonly string[]): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const pattern = /^(\d{17})\.rows$/;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = pattern.exec(name.slice(prefix.length));
    if (match && !keep.includes(match[1] as string)) await rm(join(dir, name), { force: true });
  }
}
