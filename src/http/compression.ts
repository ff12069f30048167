/**
 * gzip and brotli, negotiated from Accept-Encoding, for every answer over COMPRESS_THRESHOLD_BYTES. A
 * streamed FeatureCollection has no length up front and is always compressed (it is never small). An answer in
 * memory of up to COMPRESS_AT_ONCE_MAX_BYTES is compressed in one call (compressAtOnce), the rest by koa-compress.
 */
import compress from 'koa-compress';
import { Readable, Stream, Writable } from 'node:stream';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, Next } from 'koa';
import { MVT } from './mediaType.js';

/** Below about one packet the headers and the compressor's CPU cost more than the bytes saved. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * An object body becomes its JSON bytes here, once. Left to Koa, it is serialised twice for every answer
 * (koa-compress reads `response.length`, which stringifies an object body, and Koa's respond stringifies it
 * again) and a third time when it is compressed. A body under the threshold is then known not to be compressed,
 * so koa-compress skips its content-type and Accept-Encoding checks.
 */
function serialiseOnce(ctx: Context): void {
  const body: unknown = ctx.body;
  if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream)) {
    // A string, as Koa would write it: the status line, headers and body leave in one write.
    ctx.body = JSON.stringify(body);
  }
  const length = ctx.response.length;
  if (length !== undefined && length < COMPRESS_THRESHOLD_BYTES) ctx.compress = false;
}

/**
 * Answers in memory up to this size are compressed in one synchronous call, their length known: koa-compress pipes
 * every body through a compression stream (a stream per answer, a thread-pool hand-over, an answer chunked over
 * several writes), which cost a 2 KB keystroke answer about 0.24 ms of CPU against 0.05-0.09 ms in one call
 * (measured in one process, client and server). Bounded so that no such call holds the event loop for long (brotli
 * at quality 4 compresses about 100 MB/s: 16 KiB is about 0.2 ms).
 */
export const COMPRESS_AT_ONCE_MAX_BYTES = 16 * 1024;
/**
 * The options of both paths. Quality 4 is brotli's speed/size sweet spot for dynamic bodies (11, the default, costs
 * ~10x the CPU).
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
const AT_ONCE = {
  br: (body: string | Buffer) =>
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (body: string | Buffer) => gzipSync(body, { level: GZIP_LEVEL }),
};
/** What compressAtOnce takes (koa-compress's `compressible` filter agrees): JSON, GeoJSON and text. */
const TEXT_TYPE = /^(?:application\/(?:[\w.-]+\+)?json|text\/)/;
/** koa-compress's own exits that an answer in memory can meet: no body to encode, or one that must not be. */
const NO_BODY_STATUSES = new Set([204, 205, 206, 304]);
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;

/**
 * A JSON or text answer in memory, over the threshold and up to COMPRESS_AT_ONCE_MAX_BYTES, compressed here in the
 * encoding the client prefers (as the body cache chooses it, src/http/bodyCache.ts); false when it is left to
 * koa-compress (or to go as it is).
 */
function compressAtOnce(ctx: Context): boolean {
  const body: unknown = ctx.body;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return false;
  const length = ctx.response.length;
  if (length === undefined || length > COMPRESS_AT_ONCE_MAX_BYTES) return false;
  if (ctx.compress !== undefined || !TEXT_TYPE.test(ctx.response.type)) return false;
  if (ctx.method === 'HEAD' || NO_BODY_STATUSES.has(ctx.status) || ctx.res.headersSent || !ctx.writable) return false;
  if (ctx.response.get('Content-Encoding') || ctx.response.get('Content-Range')) return false;
  if (NO_TRANSFORM.test(ctx.response.get('Cache-Control'))) return false;
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') {
    ctx.body = AT_ONCE[encoding](body);
    ctx.set('Content-Encoding', encoding);
  }
  // Identity (or nothing acceptable): as koa-compress would, the body goes as it is.
  return true;
}

export function compression() {
  const compressing = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    gzip: { level: GZIP_LEVEL },
    deflate: false,
    // Only what we negotiate and test; zstd needs Node 22.15+.
    zstd: false,
  });
  const noMore = async () => {};
  return async (ctx: Context, next: Next) => {
    // What koa-compress does before the rest of the chain; its part after it runs only for a body that may be
    // compressed (most answers are under the threshold: one layer's promises less for each of them).
    ctx.vary('Accept-Encoding');
    await next();
    serialiseOnce(ctx);
    if (ctx.compress === false || compressAtOnce(ctx)) return;
    // koa-compress compresses the types the compressible package lists; vector tiles are not among them.
    if (ctx.compress === undefined && ctx.response.type === MVT) ctx.compress = true;
    const source: unknown = ctx.body;
    // Its Vary is already there, so the second one changes nothing.
    await compressing(ctx, noMore);
    // koa-compress feeds the compressor with .pipe(), which does not pass a failure on: a streamed collection
    // failing after its first page would leave the compressed answer hanging open. Pass it on, so Koa's
    // pipeline to the socket fails and the connection is closed (see abortStartedResponse).
    const compressed = ctx.body;
    const destroyable = compressed instanceof Readable || compressed instanceof Writable;
    if (source instanceof Stream && destroyable && compressed !== source) {
      source.once('error', (error) => compressed.destroy(error));
    }
  };
}
