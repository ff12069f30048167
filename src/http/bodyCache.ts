/**
 * Rendered answers kept per ETag (live generations + normalised request + media type), with their gzip and
 * brotli encodings made once, bounded in bytes (BODY_CACHE_BYTES). A hit is a buffer write: no Elasticsearch
 * round trip, no JSON serialisation, no compression, so clients looping over large boundary collections
 * do not take the event loop from geocoding. A new generation changes every key; old entries age out.
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { COMPRESS_THRESHOLD_BYTES } from './compression.js';
import { BuiltBody } from './builtBody.js';
import type { ByteBudget } from './byteBudget.js';
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
    /** What the copies of answers being built may hold at once, with the answers in flight (src/http/byteBudget.ts). */
    private readonly budget: ByteBudget,
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

  /**
   * Serves the cached answer for `key`, in the encoding the client prefers; false when there is none. A heavy one
   * waits for its slot holding only its key, and is looked up again once it has one (false if it was evicted then).
   */
  async serve(ctx: Context, key: string): Promise<boolean> {
    // Nothing of the body is held from here on (chosen() set a light one as the answer).
    const kept = await this.chosen(ctx, key);
    if (!kept) return false;
    const { encoding, heavyBytes } = kept;
    // Headers only once the body is certain: a heavy answer refused for want of a slot leaves as a plain error.
    if (heavyBytes !== undefined) {
      if (!(await this.heavy.sendKept(ctx, heavyBytes, () => this.bodyOf(key, encoding)))) return false;
    }
    if (encoding) ctx.set('Content-Encoding', encoding);
    ctx.vary('Accept-Encoding');
    ctx.type = kept.type;
    return true;
  }

  /**
   * The kept answer for `key` in the encoding the client prefers (undefined: identity): made the answer when it is
   * light; when heavy, its size only. Undefined when nothing is kept.
   */
  private async chosen(
    ctx: Context,
    key: string,
  ): Promise<{ encoding?: Encoding; type: string; heavyBytes?: number } | undefined> {
    const entry = this.lru?.get(key);
    if (!entry) return undefined;
    const accepted = entry.identity.length < COMPRESS_THRESHOLD_BYTES ? false : ctx.acceptsEncodings('br', 'gzip');
    const encoding = accepted === 'br' || accepted === 'gzip' ? accepted : undefined;
    const body = encoding ? (entry.encoded[encoding] ?? (await this.encode(key, entry, encoding))) : entry.identity;
    if (this.heavy.isHeavy(ctx, body.length)) return { encoding, type: entry.type, heavyBytes: body.length };
    ctx.body = body;
    return { encoding, type: entry.type };
  }

  /** The kept body of `key` in `encoding` (identity when undefined), if it is still kept. */
  private bodyOf(key: string, encoding: Encoding | undefined): Buffer | undefined {
    const entry = this.lru?.peek(key);
    return encoding ? entry?.encoded[encoding] : entry?.identity;
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
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || body == null) return finish();
    const type = ctx.response.get('Content-Type');
    if (body instanceof Readable) {
      // A stream still streams, through the heavy-answer limits: copied on its way out while it may be kept.
      await this.heavy.sendStream(ctx, new BuiltBody(body, this.budget, this.keepOptions(ctx, key, type, finish)));
    } else {
      const identity = toBuffer(body);
      this.keepWhole(ctx, key, type, identity);
      finish();
      await this.heavy.send(ctx, identity);
    }
    ctx.type = type;
  }

  /** Whether the answer `build` just set may be kept, and how: undefined (and `done` called) when it may not. */
  private keepOptions(ctx: Context, key: string, type: string, done: () => void) {
    const lru = this.lru;
    if (!lru || !this.keepable(ctx)) {
      done();
      return undefined;
    }
    const store = (identity: Buffer) => lru.set(key, { type, identity, encoded: {} });
    return { maxBytes: this.maxEntryBytes, store, done };
  }

  private keepWhole(ctx: Context, key: string, type: string, identity: Buffer): void {
    if (this.lru && this.keepable(ctx)) this.lru.set(key, { type, identity, encoded: {} });
  }

  /** An answer that came compressed (tiles cut ahead) is kept where it came from; this cache keeps identity bodies. */
  private keepable(ctx: Context): boolean {
    return !ctx.response.get('Content-Encoding');
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
