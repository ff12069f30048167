import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ReadProgress } from './types.js';

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
  const gunzip = createGunzip();
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
