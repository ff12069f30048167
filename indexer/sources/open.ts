import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createTextDecoder, type LineIndex, physicalLines, type TextPosition } from './decode.js';
import { type ReadProgress, SourceFileError } from './types.js';

export interface OpenedFile {
  /** The decoded bytes; a read or gunzip error surfaces as an error on this stream. */
  output: Readable;
  progress: ReadProgress;
  destroy(): void;
}

/**
 * A file as a byte stream, gunzipped on the fly for `.gz` (never unpacked to disk), with a live
 * count of the bytes read from disk for progress and ETA.
 */
export async function openFile(path: string): Promise<OpenedFile> {
  const { size } = await stat(path);
  const progress: ReadProgress = { bytesRead: 0, totalBytes: size };
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  file.on('data', (chunk) => {
    progress.bytesRead += chunk.length;
  });
  if (!path.endsWith('.gz')) return { output: file, progress, destroy: () => file.destroy() };
  // 64 KiB output chunks (zlib default 16 KiB): a quarter of the callbacks through gunzip, decoder and parser.
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  return {
    output: gunzip,
    progress,
    destroy: () => {
      file.destroy();
      gunzip.destroy();
    },
  };
}

export interface OpenedText {
  /** Checked UTF-8 bytes (transcoded when the source names another encoding), without a BOM. */
  output: Readable;
  progress: ReadProgress;
  position: TextPosition;
  destroy(): void;
  /** Any failure while reading, as a SourceFileError naming the file, the position and what was read before it. */
  failure(error: unknown, recordsRead: number): SourceFileError;
}

/** A source file as checked UTF-8 text (open.ts's bytes through decode.ts), its newlines counted. */
export async function openText(
  path: string,
  options: { encoding?: string | undefined; lines?: LineIndex | undefined } = {},
): Promise<OpenedText> {
  const opened = await openFile(path);
  const compressed = path.endsWith('.gz');
  const { stream, position } = createTextDecoder(path, { ...options, compressed });
  opened.output.on('error', (error) => stream.destroy(error));
  opened.output.pipe(stream);
  return {
    output: stream,
    progress: opened.progress,
    position,
    destroy: () => {
      opened.destroy();
      stream.destroy();
    },
    failure: (error, recordsRead) => {
      if (error instanceof SourceFileError) return error;
      const message = (error as Error)?.message ?? String(error);
      const gzip = compressed && /unexpected end of file|incorrect header|invalid|zlib/i.test(message);
      const what = gzip ? `gzip data truncated or damaged (${message})` : message;
      const read = `${opened.progress.bytesRead} of ${opened.progress.totalBytes} bytes of the file`;
      const text = compressed ? `, ${position.bytes} bytes decompressed` : '';
      return new SourceFileError(
        path,
        `${path}: ${what} after ${read}${text}, ${physicalLines(position)} lines; ${recordsRead} records read before it`,
      );
    },
  };
}
