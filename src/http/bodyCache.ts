/**
 * Rendered answers kept per ETag (live generations + normalised request + media type), with their gzip and
 * brotli encodings made once, bounded in bytes (BODY_CACHE_BYTES). A hit is a buffer write: no Elasticsearch
 * round trip, no JSON serialisation, no compression, so clients looping over large boundary collections
 * do not take the event loop from geocoding. A new generation changes every key; old entries age out.
 */
import { pipeline, Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { COMPRESS_THRESHOLD_BYTES } from './compression.js';

type Encoding = 'br' | 'gzip';

interface Rendered {
  type: string;
  identity: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

const ENCODERS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Made once per entry, off the event loop (zlib's thread pool). Brotli 6 costs about what 4 does on the
  // fly; 9 took six times as long on a 2 MB collection for 1 % fewer bytes.
  br: (body) => promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

const sizeOf = (entry: Rendered) =>
  entry.identity.length + Object.values(entry.encoded).reduce((n, b) => n + b.length, 0);

export interface BodyCacheStats {
  entries: number;
  bytes: number;
  max_bytes: number;
}

export class BodyCache {
  private readonly lru: LRUCache<string, Rendered> | undefined;
  /** One body may take at most a quarter of the cache, so a single huge answer cannot flush all the others. */
  private readonly maxEntryBytes: number;
  private readonly pending = new Map<string, Promise<Buffer>>();

  constructor(private readonly maxBytes: number) {
    this.maxEntryBytes = Math.floor(maxBytes / 4);
    this.lru =
      maxBytes > 0
        ? new LRUCache({ maxSize: maxBytes, maxEntrySize: this.maxEntryBytes, sizeCalculation: sizeOf })
        : undefined;
  }

  stats(): BodyCacheStats {
    return { entries: this.lru?.size ?? 0, bytes: this.lru?.calculatedSize ?? 0, max_bytes: this.maxBytes };
  }

  /** Serves the cached answer for `key`, in the encoding the client prefers; false when there is none. */
  async serve(ctx: Context, key: string): Promise<boolean> {
    const entry = this.lru?.get(key);
    if (!entry) return false;
    const encoding = entry.identity.length < COMPRESS_THRESHOLD_BYTES ? false : ctx.acceptsEncodings('br', 'gzip');
    let body = entry.identity;
    if (encoding === 'br' || encoding === 'gzip') {
      body = entry.encoded[encoding] ?? (await this.encode(key, entry, encoding));
      ctx.set('Content-Encoding', encoding);
    }
    ctx.vary('Accept-Encoding');
    ctx.body = body;
    ctx.type = entry.type;
    return true;
  }

  /**
   * Keeps the answer `build` just set (an object, a string, a buffer or a stream) once it is complete. A
   * stream still streams: it is copied on its way out and kept only if it ended whole and small enough.
   */
  keep(ctx: Context, key: string): void {
    const lru = this.lru;
    const body: unknown = ctx.body;
    if (!lru || body == null || ctx.status !== 200) return;
    const type = ctx.response.get('Content-Type') as string;
    const store = (identity: Buffer) => lru.set(key, { type, identity, encoded: {} });
    if (body instanceof Readable) {
      ctx.body = this.copyOnTheWay(body, store);
    } else {
      const identity = Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      ctx.body = identity;
      store(identity);
    }
    ctx.type = type;
  }

  private copyOnTheWay(source: Readable, store: (body: Buffer) => void): Transform {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const tee = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        if (bytes <= this.maxEntryBytes) chunks.push(chunk);
        done(null, chunk);
      },
      flush: (done) => {
        if (bytes <= this.maxEntryBytes) store(Buffer.concat(chunks));
        done();
      },
    });
    // A failure mid-stream aborts the copy too (nothing is kept) and reaches Koa as the body's error.
    pipeline(source, tee, () => {});
    return tee;
  }

  /** Each encoding of an entry is made once, however many requests ask for it at the same moment. */
  private encode(key: string, entry: Rendered, encoding: Encoding): Promise<Buffer> {
    const pendingKey = `${encoding} ${key}`;
    let encoded = this.pending.get(pendingKey);
    if (!encoded) {
      encoded = ENCODERS[encoding](entry.identity).then((body) => {
        // A new entry object, so the cache recounts its size (and evicts others, or drops it if it no longer fits).
        const current = this.lru?.peek(key);
        if (current) this.lru?.set(key, { ...current, encoded: { ...current.encoded, [encoding]: body } });
        return body;
      });
      this.pending.set(pendingKey, encoded);
      void encoded.finally(() => this.pending.delete(pendingKey)).catch(() => {});
    }
    return encoded;
  }
}
