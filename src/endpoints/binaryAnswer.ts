/**
 * An answer that is not JSON (a vector tile): bytes of its own media type, or nothing, which is a 204 No Content.
 * A handler returns one; the router sends it as it is (src/endpoints/router.ts).
 *
 * The bytes may come already compressed, in one or more content codings (tiles cut ahead, src/features/tiles/seed):
 * the one the client accepts goes out as it is (nothing compresses it again, and the body cache, which keeps identity
 * bodies, does not keep it); a client that accepts none of them gets the bytes decoded.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context } from 'koa';

export type ContentCoding = 'br' | 'gzip';

/** The same bytes in each coding it has (at least one). */
export interface Encoded {
  encoded: Partial<Record<ContentCoding, Buffer>>;
}

const DECODERS: Record<ContentCoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliDecompressSync(body),
  gzip: (body) => gunzipSync(body),
};

export class BinaryAnswer {
  constructor(
    readonly mediaType: string,
    /** undefined: nothing to send (204). */
    readonly body: Buffer | Encoded | undefined,
  ) {}

  send(ctx: Context): void {
    if (this.body === undefined) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    ctx.type = this.mediaType;
    if (Buffer.isBuffer(this.body)) {
      ctx.body = this.body;
      return;
    }
    const { encoded } = this.body;
    const codings = Object.keys(encoded) as ContentCoding[];
    ctx.vary('Accept-Encoding');
    ctx.compress = false;
    const chosen = ctx.acceptsEncodings(...codings);
    if (chosen && encoded[chosen as ContentCoding]) {
      ctx.set('Content-Encoding', chosen);
      ctx.body = encoded[chosen as ContentCoding];
    } else {
      const coding = codings[0]!;
      ctx.body = DECODERS[coding](encoded[coding]!);
    }
  }
}
