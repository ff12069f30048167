/**
 * A generation's row cache on disk (rowCache.ts): `<dir>/<prefix><generation>.rows`, one file per generation, written
 * whole to a temporary name and renamed (never half-written), deleted with its generation. Layout: a first line
 * `geocoder-rows <format> <json bytes>`, the JSON (what the rows were made from, the sources, the interned strings),
 * padding to 8 bytes, then each column's bytes in a fixed order, then the derivation memo (derivationMemo.ts) as one
 * node:v8 serialised map. Anything that does not read back as written is
 * "no cache": `update` then reads the snapshot the full way.
 */
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { MemoEntries } from './derivationMemo.js';
import { RowCache, type RowCacheBuilder, RowColumns, type SourceRows, STRINGS_PER_ROW } from './rowCache.js';

const MAGIC = 'geocoder-rows';
const FORMAT = 3;

/** What the rows were derived with: replayed only when the next run derives with the very same. */
export interface RowCacheHead {
  prefix: string;
  generation: string;
  /** Digest of the manifest, every source file but the address files, and the indexer's code (rowContext.ts). */
  context: string;
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

export function rowCachePath(dir: string, prefix: string, generation: string): string {
  return join(dir, `${prefix}${generation}.rows`);
}

export async function writeRowCache(
  dir: string,
  head: RowCacheHead,
  rows: RowCacheBuilder,
  memo: MemoEntries = new Map(),
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const c = rows.columns;
  const memoBytes = serialize(memo);
  const json = Buffer.from(
    JSON.stringify({ ...head, sources: rows.sources, strings: rows.strings, rows: c.length, memo: memoBytes.length }),
  );
  const first = Buffer.from(`${MAGIC} ${FORMAT} ${json.length}\n`);
  const pad = Buffer.alloc((8 - ((first.length + json.length) % 8)) % 8);
  const parts: Uint8Array[] = [first, json, pad];
  for (const name of COLUMNS) {
    const column = c[name];
    const used = column.subarray(0, c.length * WIDTH[name]);
    parts.push(new Uint8Array(used.buffer, used.byteOffset, used.byteLength));
    const tail = used.byteLength % 8;
    if (tail) parts.push(Buffer.alloc(8 - tail));
  }
  parts.push(memoBytes);
  const path = rowCachePath(dir, head.prefix, head.generation);
  const temporary = `${path}.${process.pid}.partial`;
  await writeFile(temporary, parts);
  await rename(temporary, path);
  return path;
}

/** A whole file in an ArrayBuffer of its own (offset 0, so typed arrays over it can be aligned). */
async function readWhole(path: string): Promise<ArrayBuffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const file = new ArrayBuffer(size);
    const view = new Uint8Array(file);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(view, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return file;
  } finally {
    await handle.close();
  }
}

/** The generation's rows, or undefined when there is no readable cache of it (with why, for the log). */
export async function readRowCache(
  dir: string,
  prefix: string,
  generation: string,
): Promise<{ head: RowCacheHead; cache: RowCache; memo: MemoEntries } | { missing: string }> {
  const path = rowCachePath(dir, prefix, generation);
  let file: ArrayBuffer;
  try {
    file = await readWhole(path);
  } catch {
    return { missing: `no row cache at ${path}` };
  }
  const bytes = Buffer.from(file);
  const newline = bytes.indexOf(0x0a);
  const [magic, format, length] = bytes.subarray(0, Math.max(0, newline)).toString().split(' ');
  if (magic !== MAGIC || Number(format) !== FORMAT)
    return { missing: `${path} is not a row cache of format ${FORMAT}` };
  const start = newline + 1;
  let meta: RowCacheHead & { sources: SourceRows[]; strings: string[]; rows: number; memo: number };
  try {
    meta = JSON.parse(bytes.subarray(start, start + Number(length)).toString());
  } catch {
    return { missing: `${path}: unreadable header` };
  }
  if (meta.prefix !== prefix || meta.generation !== generation) return { missing: `${path} is another generation's` };
  let at = start + Number(length);
  at += (8 - (at % 8)) % 8;
  const columns = new RowColumns();
  const n = meta.rows;
  // Views of the file's own memory (read into a fresh ArrayBuffer, so each column's offset is 8-byte aligned).
  for (const name of COLUMNS) {
    const Type = columns[name].constructor as Uint32ArrayConstructor | Uint8ArrayConstructor | Float64ArrayConstructor;
    const count = n * WIDTH[name];
    const byteLength = count * Type.BYTES_PER_ELEMENT;
    if (at + byteLength > file.byteLength) return { missing: `${path} is truncated` };
    (columns as unknown as Record<string, unknown>)[name] = new Type(file, at, count);
    at += byteLength + ((8 - (byteLength % 8)) % 8);
  }
  columns.length = n;
  if (at + meta.memo !== file.byteLength) return { missing: `${path} is truncated` };
  let memo: MemoEntries;
  try {
    memo = deserialize(new Uint8Array(file, at, meta.memo)) as MemoEntries;
  } catch {
    return { missing: `${path}: unreadable derivation memo` };
  }
  if (!(memo instanceof Map)) return { missing: `${path}: unreadable derivation memo` };
  return {
    head: { prefix: meta.prefix, generation: meta.generation, context: meta.context },
    cache: new RowCache(columns, meta.sources, meta.strings),
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
