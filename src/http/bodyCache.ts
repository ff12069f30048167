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
import type { HeavyAnswers } from './heavyAnswers.js';

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
  /** Answers being built now, by key: a request for one of them waits for that build instead of starting another. */
  private readonly building = new Map<string, Promise<void>>();

  constructor(
    private readonly maxBytes: number,
    /** How a kept body is written: heavy ones bounded and sliced (src/http/heavyAnswers.ts). */
    private readonly heavy: HeavyAnswers,
  ) {
    this.maxEntryBytes = Math.floor(maxBytes / 4);
    this.lru =
      maxBytes > 0
        ? new LRUCache({ maxSize: maxBytes, maxEntrySize: this.maxEntryBytes, sizeCalculation: sizeOf })
        : undefined;
  }

  stats(): BodyCacheStats {
    return { entries: this.lru?.size ?? 0, bytes: this.lru?.calculatedSize ?? 0, max_bytes: this.maxBytes };
  }

  has(key: string): boolean {
    return this.lru?.has(key) ?? false;
  }

  /** Serves the cached answer for `key`, in the encoding the client prefers; false when there is none. */
  async serve(ctx: Context, key: string): Promise<boolean> {
    const entry = this.lru?.get(key);
    if (!entry) return false;
    const encoding = entry.identity.length < COMPRESS_THRESHOLD_BYTES ? false : ctx.acceptsEncodings('br', 'gzip');
    const compressed = encoding === 'br' || encoding === 'gzip';
    const body = compressed ? (entry.encoded[encoding] ?? (await this.encode(key, entry, encoding))) : entry.identity;
    // Headers only once the body is certain: a heavy answer refused for want of a slot leaves as a plain error.
    await this.heavy.send(ctx, body);
    if (compressed) ctx.set('Content-Encoding', encoding);
    ctx.vary('Accept-Encoding');
    ctx.type = entry.type;
    return true;
  }

  /**
   * Builds the answer for `key` with `build` and keeps it, unless the same answer is being built already: then
   * waits for that build and serves what it kept. Right after a reindex every map client misses at once, and
   * each building the world's countries (an Elasticsearch page of megabytes, parsed and serialised on the event
   * loop) would stall geocoding for as many builds. The wait ends when the build has read Elasticsearch's answer, or
   * as soon as the answer is known to be too big to keep, never on the first client's download. A built answer goes
   * out under the heavy-answer limits as a kept one does.
   */
  async build(ctx: Context, key: string, build: () => Promise<void>): Promise<void> {
    const underway = this.building.get(key);
    if (underway) {
      await underway;
      if (await this.serve(ctx, key)) return;
    }
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    this.building.set(key, done);
    const finish = () => {
      if (this.building.get(key) === done) this.building.delete(key);
      finished();
    };
    try {
      await build();
    } catch (error) {
      finish();
      throw error;
    }
    this.keep(ctx, key, finish);
    await this.sendBuilt(ctx);
  }

  /** The answer `build` set, through the heavy-answer limits (a kept answer goes through them in serve()). */
  private async sendBuilt(ctx: Context): Promise<void> {
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || body == null) return;
    if (body instanceof Readable) return this.heavy.sendStream(ctx, body);
    const type = ctx.response.get('Content-Type') as string;
    await this.heavy.send(ctx, toBuffer(body));
    ctx.type = type;
  }

  /**
   * Keeps the answer `build` just set (an object, a string, a buffer or a stream) once it is complete. A
   * stream still streams: it is copied on its way out and kept only if it ended whole and small enough.
   * `done` is called once it is kept or known not to be.
   */
  private keep(ctx: Context, key: string, done: () => void): void {
    const lru = this.lru;
    const body: unknown = ctx.body;
    // An answer that came compressed (tiles cut ahead) is kept where it came from; this cache keeps identity bodies.
    if (!lru || body == null || ctx.status !== 200 || ctx.response.get('Content-Encoding')) return done();
    const type = ctx.response.get('Content-Type') as string;
    const store = (identity: Buffer) => lru.set(key, { type, identity, encoded: {} });
    if (body instanceof Readable) {
      ctx.body = this.copyOnTheWay(body, store, done);
    } else {
      const identity = toBuffer(body);
      ctx.body = identity;
      store(identity);
      done();
    }
    ctx.type = type;
  }

  /**
   * A body small enough to keep is read from the source whole, whatever the client's pace (the chunks are held for
   * the cache anyway): requests waiting for this build (build()) are then told when Elasticsearch is done, not when a
   * slow first client is. A body that turns out too big to keep is let go at once: its copy is dropped and the
   * waiters are told (they build their own), and from then on it streams at the client's pace.
   */
  private copyOnTheWay(source: Readable, store: (body: Buffer) => void, done: () => void): Transform {
    let chunks: Buffer[] | undefined = [];
    let bytes = 0;
    const tee = new Transform({
      readableHighWaterMark: this.maxEntryBytes,
      transform: (chunk: Buffer, _encoding, next) => {
        bytes += chunk.length;
        if (chunks && bytes > this.maxEntryBytes) {
          chunks = undefined;
          done();
        }
        chunks?.push(chunk);
        next(null, chunk);
      },
      flush: (flushed) => {
        if (chunks) store(Buffer.concat(chunks));
        flushed();
        // Kept (or known not to be) once the source has ended: the waiters need not wait for this client's download.
        done();
      },
    });
    // A failure mid-stream aborts the copy too (nothing is kept) and reaches Koa as the body's error; a client gone
    // mid-stream (Koa destroys the body) ends it the same way. `done` may be called twice: it settles once.
    pipeline(source, tee, () => done());
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

function toBuffer(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
}
