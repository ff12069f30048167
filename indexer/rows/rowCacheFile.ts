/**
 * A generation's row cache on disk (rowCache.ts): `<dir>/<prefix><generation>.rows`, one file per generation, written
 * to a temporary name (`….rows.<host>.<pid>.partial`) and renamed (never half-written), deleted with its generation. A
 * temporary file its writer left behind (killed) is removed by the next write or prune in the directory: at once when
 * the writer was a process of this host that is gone, else once nothing has written it for an hour. Written in pieces
 * of at most about a megabyte besides the columns themselves, so that saving the cache at the end of a run holds no
 * second copy of what it saves (the run's peak memory falls there). Layout (format 5):
 * - a first line of `LINE_BYTES`: `geocoder-rows 5 <head bytes> <strings bytes> <memo entries> <sha256>`, padded with
 *   spaces; the SHA-256 is over every byte after the line, then the line's text before the checksum;
 * - the head, JSON: what the rows were made from, the sources, the row count;
 * - the interned strings, one JSON array;
 * - padding to 8 bytes, then each column's bytes in a fixed order, each padded to 8;
 * - the derivation memo (derivationMemo.ts): per entry its key's and its bytes' lengths (uint32 LE), then both.
 * Anything that does not read back as written, a byte changed anywhere included, is "no cache": `update` then reads
 * the snapshot the full way and says why.
 */
import { createHash, type Hash } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { MemoEntries } from './derivationMemo.js';
import { RowCache, RowColumns, type SourceRows, STRINGS_PER_ROW } from './rowCache.js';
import type { RowCacheBuilder } from './rowCacheBuilder.js';

const MAGIC = 'geocoder-rows';
const FORMAT = 5;
const LINE_BYTES = 128;
/** A temporary file nothing has written for this long is left over, whoever wrote it (a cache is written in seconds). */
export const STALE_PARTIAL_MS = 60 * 60 * 1000;
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

/** Appends to a file from `LINE_BYTES` on, small pieces gathered into one write, every byte hashed as it is put. */
class FileWriter {
  at = LINE_BYTES;
  readonly hash = createHash('sha256');
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(private readonly handle: FileHandle) {}

  async put(bytes: Uint8Array): Promise<void> {
    this.hash.update(bytes);
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

/** The first line's fields before the checksum, hashed after the bytes it describes. */
const lineFields = (headBytes: number, stringBytes: number, memoEntries: number) =>
  `${MAGIC} ${FORMAT} ${headBytes} ${stringBytes} ${memoEntries}`;

/** The checksum: the bytes after the first line, already in `hash`, then the first line's fields. */
function checksum(hash: Hash, fields: string): string {
  return hash.update(fields).digest('hex');
}

export async function writeRowCache(
  dir: string,
  head: RowCacheHead,
  rows: RowCacheBuilder,
  memo: MemoEntries = new Map(),
): Promise<string> {
  await mkdir(dir, { recursive: true });
  await removeLeftoverPartials(dir);
  const path = rowCachePath(dir, head.prefix, head.generation);
  const temporary = `${path}.${hostname()}.${process.pid}.partial`;
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
    const fields = lineFields(headBytes.byteLength, stringBytes, memo.size);
    const line = `${fields} ${checksum(out.hash, fields)}`.padEnd(LINE_BYTES - 1);
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
  const [magic, format, headText, stringsText, memoText, sum] = line.trim().split(' ');
  if (magic !== MAGIC || Number(format) !== FORMAT || !line.endsWith('\n'))
    return { missing: `${path} is not a row cache of format ${FORMAT}` };
  const [headBytes, stringBytes, memoCount] = [Number(headText), Number(stringsText), Number(memoText)];
  if (![headBytes, stringBytes, memoCount].every((n) => Number.isSafeInteger(n) && n >= 0) || !sum)
    return { missing: `${path}: unreadable first line` };
  let at = LINE_BYTES + headBytes + stringBytes;
  at += paddingTo8(at);
  if (at > size) return { missing: `${path} is truncated` };
  // The head, the strings and the padding after them: every byte from the first line to the columns (hashed).
  const text = Buffer.from(await readAt(handle, LINE_BYTES, at - LINE_BYTES));
  let meta: StoredHead;
  let strings: string[];
  try {
    meta = JSON.parse(text.toString('utf8', 0, headBytes)) as StoredHead;
    strings = JSON.parse(text.toString('utf8', headBytes, headBytes + stringBytes)) as string[];
  } catch {
    return { missing: `${path}: unreadable head` };
  }
  if (meta.prefix !== prefix || meta.generation !== generation) return { missing: `${path} is another generation's` };
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
  const memoRegion = await readAt(handle, at, size - at);
  const hash = createHash('sha256').update(text).update(new Uint8Array(block)).update(new Uint8Array(memoRegion));
  if (checksum(hash, lineFields(headBytes, stringBytes, memoCount)) !== sum) {
    return { missing: `${path}: checksum mismatch (changed or damaged since it was written)` };
  }
  const memo = memoEntries(memoRegion, memoCount);
  if (!memo) return { missing: `${path}: unreadable derivation memo` };
  return {
    head: { prefix: meta.prefix, generation: meta.generation, context: meta.context },
    cache: new RowCache(columns, meta.sources, strings),
    memo,
  };
}

/** Whether process `pid` of this host is running (one of another user's counts: kill -0 answers EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `….rows.<host>.<pid>.partial` (`….rows.<pid>.partial` before the host was part of the name: this host's). */
const PARTIAL = /^.+\.rows\.(?:(.+)\.)?(\d+)\.partial$/;

/**
 * Removes the temporary files of writers that are gone (killed mid-write): one of this host whose process is not
 * running, or any nothing has written for STALE_PARTIAL_MS (another host's, or a pid since reused). Never one a
 * running writer of this host is writing. Best effort: a file that cannot be examined or removed is left.
 */
export async function removeLeftoverPartials(dir: string, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const host = hostname();
  for (const name of names) {
    const match = PARTIAL.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    const [, writerHost = host, pid] = match;
    try {
      const gone = writerHost === host && !running(Number(pid));
      if (!gone && now - (await stat(path)).mtimeMs < STALE_PARTIAL_MS) continue;
      await rm(path, { force: true });
      removed.push(name);
    } catch {
      // Left for the next time.
    }
  }
  return removed;
}

/**
 * Deletes the row caches of `prefix` whose generation is not in `keep` (after a prune or a failed run), and the
 * directory's temporary files left by writers that are gone.
 */
export async function pruneRowCaches(dir: string, prefix: string, keep: readonly string[]): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await removeLeftoverPartials(dir);
  const pattern = /^(\d{17})\.rows$/;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = pattern.exec(name.slice(prefix.length));
    if (match && !keep.includes(match[1] as string)) await rm(join(dir, name), { force: true });
  }
}
