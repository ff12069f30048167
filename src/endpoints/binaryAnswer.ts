/**
 * An answer that is not JSON (a vector tile): bytes of its own media type, or nothing, which is a 204 No Content.
 * A handler returns one; the router sends it as it is (src/endpoints/router.ts).
 */
export class BinaryAnswer {
  constructor(
    readonly mediaType: string,
    /** undefined: nothing to send (204). */
    readonly body: Buffer | undefined,
  ) {}

  send(ctx: { type: string; body: unknown; status: number }): void {
    if (this.body === undefined) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    ctx.type = this.mediaType;
    ctx.body = this.body;
  }
}
