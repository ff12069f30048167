/**
 * zlib-inflates blob after blob into one output buffer, reused: `zlib.inflateSync` returns a new buffer outside the
 * JavaScript heap for every blob, which V8 collects only once such memory has grown by tens of MB, so the reader's
 * peak memory grew with the file though nothing it held did (docs/openstreetmap.md, "Measured"). node:zlib has no
 * public call that inflates into a given buffer; its Inflate stream's handle does (`writeSync` with an output buffer
 * and offset, `reset` between blobs: what `inflateSync` itself drives, lib/zlib.js `processChunkSync`). Where the
 * handle is not as expected (another Node.js), or a blob does not say its size, this falls back to `inflateSync`.
 *
 * The returned bytes are valid until the next call: a blob is decoded before the next is read (pbfBlobs.ts).
 */
import * as zlib from 'node:zlib';

interface InflateHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  reset(): void;
  onerror: (message: string, errno: number, code: string) => void;
}

interface HandleParts {
  stream: zlib.Inflate;
  handle: InflateHandle;
  /** [output bytes left, input bytes left] after each write. */
  state: Uint32Array;
}

function handleOf(stream: zlib.Inflate): HandleParts | undefined {
  const parts = stream as unknown as { _handle?: Partial<InflateHandle>; _writeState?: unknown };
  const handle = parts._handle;
  const state = parts._writeState;
  if (typeof handle?.writeSync !== 'function' || typeof handle.reset !== 'function') return undefined;
  if (!(state instanceof Uint32Array) || state.length < 2) return undefined;
  return { stream, handle: handle as InflateHandle, state };
}

export class BlobInflater {
  private parts: HandleParts | undefined;
  private usable = true;
  private out = Buffer.allocUnsafe(0);
  private failure: string | undefined;

  /** The inflated bytes of `data`, which says it inflates to `rawSize` bytes (-1: unknown). */
  inflate(data: Uint8Array, rawSize: number, chunkSize: number): Uint8Array {
    const parts = rawSize > 0 ? this.handle() : undefined;
    if (!parts) return zlib.inflateSync(data, { chunkSize });
    // One byte more than the blob says: an inflate that fills it has more than the blob said it has.
    if (this.out.length < rawSize + 1) this.out = Buffer.allocUnsafe(Math.max(rawSize + 1, this.out.length * 2));
    const { handle, state } = parts;
    this.failure = undefined;
    handle.writeSync(zlib.constants.Z_FINISH, data, 0, data.length, this.out, 0, this.out.length);
    if (this.failure !== undefined) {
      // zlib cannot go on from an error: the next blob gets a new stream.
      const message = this.failure;
      this.drop();
      throw new Error(message);
    }
    const produced = this.out.length - (state[0] as number);
    const inputLeft = state[1] as number;
    handle.reset();
    if (inputLeft > 0 && produced < this.out.length) {
      this.drop();
      throw new Error('unexpected end of file');
    }
    return this.out.subarray(0, produced);
  }

  private handle(): HandleParts | undefined {
    if (this.parts || !this.usable) return this.parts;
    const parts = handleOf(zlib.createInflate());
    if (!parts) {
      this.usable = false;
      return undefined;
    }
    parts.handle.onerror = (message) => {
      this.failure = message;
    };
    this.parts = parts;
    return parts;
  }

  private drop(): void {
    this.parts?.stream.close();
    this.parts = undefined;
  }

  /** The stream's native memory, freed now rather than when collected. */
  close(): void {
    this.drop();
  }
}
