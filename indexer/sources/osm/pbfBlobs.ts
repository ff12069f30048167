/**
 * The OSM PBF file's framing (wiki "PBF Format"): a sequence of (4-byte big-endian length, BlobHeader, Blob), each
 * Blob raw or zlib-compressed (zstd too, which node:zlib reads). Read with positioned reads, one blob in memory at a
 * time. Whatever is wrong with the file (not PBF at all, a truncated blob, damaged zlib data, a compression this
 * reader does not know, an OSMHeader asking for a feature it lacks) throws an OsmPbfError naming the file, the
 * blob's number and its byte offset.
 */
import { open } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { BYTES, ProtoReader, ProtobufError, utf8 } from './protobuf.js';
import { SourceFileError } from '../types.js';
import { BlobInflater } from './blobInflater.js';

/** The spec's limits: a BlobHeader under 64 KiB, a Blob under 32 MiB. */
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

/** Features of the OSMHeader a reader must know; these are the ones this one does. */
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

export class OsmPbfError extends SourceFileError {
  override name = 'OsmPbfError';
}

export interface PbfBlob {
  /** 0-based: the OSMHeader is blob 0. */
  index: number;
  /** Byte offset of the blob's length prefix in the file. */
  offset: number;
  type: string;
  /** The decompressed content (a HeaderBlock or a PrimitiveBlock). */
  data: Uint8Array;
}

export interface PbfHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string;
  /** The file claims to be sorted by type then id (`Sort.Type_then_ID`). */
  sorted: boolean;
}

export interface BlobReadOptions {
  /** Start at this byte offset (a blob's `offset` from an earlier pass); default the file's start. */
  from?: number | undefined;
  /** The index of the blob at `from`. */
  fromIndex?: number | undefined;
  /** Bytes read so far, for progress. */
  progress?: { bytesRead: number; totalBytes: number } | undefined;
}

export function pbfFailure(path: string, index: number, offset: number, what: string): OsmPbfError {
  return new OsmPbfError(path, `${path}: blob ${index} at byte ${offset}: ${what}`);
}

function decompress(raw: Uint8Array, path: string, index: number, offset: number, inflater: BlobInflater): Uint8Array {
  const r = new ProtoReader(raw);
  let rawSize = -1;
  let data: Uint8Array | undefined;
  let kind = '';
  while (!r.done) {
    const { field, wire } = r.key();
    if (wire !== BYTES) {
      if (field === 2) rawSize = r.int();
      else r.skip(wire);
      continue;
    }
    const [s, e] = r.bytes();
    const names: Record<number, string> = { 1: 'raw', 3: 'zlib', 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };
    if (names[field]) {
      kind = names[field];
      data = raw.subarray(s, e);
    }
  }
  if (!data) throw pbfFailure(path, index, offset, 'the blob holds no data');
  if (kind === 'raw') return Buffer.from(data); // the read buffer is reused for the next blob
  let out: Uint8Array;
  try {
    // Sized to the blob's own raw_size: one output chunk, not a chain of 16 KiB chunks concatenated at the end.
    const chunkSize = rawSize > 0 && rawSize <= MAX_BLOB ? Math.max(rawSize, 64) : 64 * 1024;
    if (kind === 'zlib') out = inflater.inflate(data, rawSize <= MAX_BLOB ? rawSize : -1, chunkSize);
    else if (kind === 'zstd' && typeof zlib.zstdDecompressSync === 'function') out = zlib.zstdDecompressSync(data);
    else {
      throw pbfFailure(
        path,
        index,
        offset,
        `${kind}-compressed, which this reader does not read (recompress it: osmium cat IN -o OUT.osm.pbf)`,
      );
    }
  } catch (error) {
    if (error instanceof OsmPbfError) throw error;
    throw pbfFailure(path, index, offset, `${kind} data damaged (${(error as Error).message})`);
  }
  if (rawSize >= 0 && out.length !== rawSize) {
    throw pbfFailure(path, index, offset, `decompressed to ${out.length} bytes, the blob says ${rawSize}`);
  }
  return out;
}

/** The blobs of the file in order, decompressed. The first must be the OSMHeader (checked by readPbfHeader). */
export async function* readBlobs(path: string, options: BlobReadOptions = {}): AsyncGenerator<PbfBlob> {
  const file = await open(path, 'r');
  // One output buffer for the file's inflated blobs (each decoded before the next is read): blobInflater.ts.
  const inflater = new BlobInflater();
  try {
    const size = (await file.stat()).size;
    let offset = options.from ?? 0;
    let index = options.fromIndex ?? 0;
    const lengthBuf = Buffer.alloc(4);
    let readBuffer = Buffer.allocUnsafe(1024 * 1024);
    const readExactly = async (buf: Buffer, length: number, at: number, what: string) => {
      const { bytesRead } = await file.read(buf, 0, length, at);
      if (bytesRead < length) {
        throw pbfFailure(
          path,
          index,
          offset,
          `file truncated: the ${what} needs ${length} bytes at byte ${at}, the file ends at byte ${size}`,
        );
      }
    };
    while (offset < size) {
      await readExactly(lengthBuf, 4, offset, 'blob header length');
      const headerLength = lengthBuf.readUInt32BE(0);
      if (headerLength === 0 || headerLength > MAX_HEADER) {
        const what =
          index === 0 ? 'not an OSM PBF file: its first 4 bytes give' : 'damaged blob: its length prefix gives';
        throw pbfFailure(path, index, offset, `${what} a blob header of ${headerLength} bytes (at most ${MAX_HEADER})`);
      }
      const headerBuf = Buffer.alloc(headerLength);
      await readExactly(headerBuf, headerLength, offset + 4, 'blob header');
      let type = '';
      let dataSize = -1;
      try {
        const r = new ProtoReader(headerBuf);
        while (!r.done) {
          const { field, wire } = r.key();
          if (field === 1 && wire === BYTES) {
            const [s, e] = r.bytes();
            type = utf8(headerBuf, s, e);
          } else if (field === 3 && wire === 0) dataSize = r.int();
          else r.skip(wire);
        }
      } catch (error) {
        if (!(error instanceof ProtobufError)) throw error;
        const what = index === 0 ? 'not an OSM PBF file' : 'damaged blob header';
        throw pbfFailure(path, index, offset, `${what} (${error.message})`);
      }
      if (index === 0 && type !== 'OSMHeader') {
        throw pbfFailure(path, index, offset, `not an OSM PBF file: the first blob is "${type}", not "OSMHeader"`);
      }
      if (type !== 'OSMHeader' && type !== 'OSMData') {
        throw pbfFailure(path, index, offset, `damaged blob header: unknown blob type "${type.slice(0, 40)}"`);
      }
      if (dataSize < 0 || dataSize > MAX_BLOB) {
        throw pbfFailure(path, index, offset, `damaged blob header: blob size ${dataSize}, at most ${MAX_BLOB}`);
      }
      // One read buffer for the whole file, grown to the largest blob (a blob's data is decompressed before the next read).
      if (readBuffer.length < dataSize) readBuffer = Buffer.allocUnsafe(Math.max(dataSize, readBuffer.length * 2));
      const raw = readBuffer.subarray(0, dataSize);
      await readExactly(raw, dataSize, offset + 4 + headerLength, 'blob');
      let data: Uint8Array;
      try {
        data = decompress(raw, path, index, offset, inflater);
      } catch (error) {
        if (!(error instanceof ProtobufError)) throw error;
        throw pbfFailure(path, index, offset, `damaged blob (${error.message})`);
      }
      const next = offset + 4 + headerLength + dataSize;
      if (options.progress) options.progress.bytesRead = next;
      yield { index, offset, type, data };
      offset = next;
      index++;
    }
  } finally {
    inflater.close();
    await file.close();
  }
}

/** The OSMHeader's content, refusing a file that needs a feature this reader lacks (history files, say). */
export function readPbfHeader(path: string, blob: PbfBlob): PbfHeader {
  const header: PbfHeader = { requiredFeatures: [], optionalFeatures: [], writingProgram: '', sorted: false };
  try {
    const r = new ProtoReader(blob.data);
    while (!r.done) {
      const { field, wire } = r.key();
      if (wire !== BYTES || (field !== 4 && field !== 5 && field !== 16)) {
        r.skip(wire);
        continue;
      }
      const [s, e] = r.bytes();
      const text = utf8(blob.data, s, e);
      if (field === 4) header.requiredFeatures.push(text);
      else if (field === 5) header.optionalFeatures.push(text);
      else header.writingProgram = text;
    }
  } catch (error) {
    if (!(error instanceof ProtobufError)) throw error;
    throw pbfFailure(path, blob.index, blob.offset, `damaged OSMHeader (${error.message})`);
  }
  const unknown = header.requiredFeatures.filter((f) => !SUPPORTED_FEATURES.has(f));
  if (unknown.length) {
    throw pbfFailure(
      path,
      blob.index,
      blob.offset,
      `the file requires ${unknown.join(', ')}, which this reader does not read`,
    );
  }
  header.sorted = header.optionalFeatures.includes('Sort.Type_then_ID');
  return header;
}

/** What is wrong with the file's start for an OSM PBF reader (empty: nothing): checked before any index exists. */
export async function osmPbfProblems(path: string): Promise<string[]> {
  try {
    for await (const blob of readBlobs(path)) {
      readPbfHeader(path, blob);
      break;
    }
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
