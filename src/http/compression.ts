/**
 * gzip and brotli, negotiated from Accept-Encoding, for every answer over COMPRESS_THRESHOLD_BYTES. A
 * streamed FeatureCollection has no length up front and is always compressed (it is never small).
 */
import compress from 'koa-compress';
import { Readable, Stream, Writable } from 'node:stream';
import { constants } from 'node:zlib';
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

export function compression() {
  const compressing = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Quality 4 is brotli's speed/size sweet spot for dynamic bodies (11, the default, costs ~10x the CPU).
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: { level: 6 },
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
    if (ctx.compress === false) return;
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
