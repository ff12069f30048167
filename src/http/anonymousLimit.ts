/**
 * Requests that carry no valid key (health checks, the pages, the OpenAPI document, CORS preflights, 401s) are
 * limited per client address (ANON_RATE_LIMIT_RPS, ANON_RATE_LIMIT_BURST) with their own token buckets, so a
 * flood of them is answered 429 at once and never spends what keyed searches need.
 *
 * A flood is cheapest refused before anything else runs: `gate` is the app's first middleware, so a request
 * without an `X-Api-Key` header whose address has spent its budget gets a pre-rendered 429 and nothing else (no
 * request id, no per-request log line or latency histogram, no CORS headers); refusals are logged as one summary
 * line a second at most and counted in `geocoder_rate_limited_total`. Even so, answering costs the process its
 * HTTP parsing and a socket write per request, and a client that sends its next request as soon as it has an
 * answer (most do, on each of their connections) would keep it busy: the refusal is held for `holdMs`
 * (ANON_REFUSAL_HOLD_MS, never longer than its Retry-After) before it is sent, which bounds such a client to one
 * request per connection per hold, at the price of a timer. Only a request whose key is accepted passes the gate
 * uncharged: a made-up `X-Api-Key` is charged and refused like no key at all (otherwise a flood would send one to
 * skip the gate), and authentication then answers 401 to those the budget admits.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { clientAddress } from './clientAddress.js';
import { ApiError, errorBody } from './errors.js';
import type { TokenBuckets } from './rateLimit.js';
import { NON_DOCUMENT_HEADERS } from './securityHeaders.js';

const REFUSAL_MESSAGE = 'Too many requests without an API key from this address; retry later';
/** The refusal's body, rendered once: answering a flood costs no serialisation. */
const REFUSAL_BODY = Buffer.from(JSON.stringify(errorBody(new ApiError(429, 'rate_limited', REFUSAL_MESSAGE))));
/** At most one line a second about refused anonymous requests, however many there are. */
const REFUSAL_LOG_INTERVAL_MS = 1000;

export class AnonymousLimit {
  private refusedSinceLog = 0;
  private lastLogAt = Number.NEGATIVE_INFINITY;

  private readonly trustProxy: boolean;
  private readonly holdMs: number;
  private readonly onLimited: () => void;
  /** Milliseconds, for the refusal log's interval (the rate limiter's clock: tests pass a fake one). */
  private readonly now: () => number;

  constructor(
    private readonly buckets: TokenBuckets,
    options: { trustProxy: boolean; holdMs?: number; onLimited?: () => void; now?: (() => number) | undefined },
  ) {
    this.trustProxy = options.trustProxy;
    this.holdMs = options.holdMs ?? 0;
    this.onLimited = options.onLimited ?? (() => {});
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Charges the request's address once (a request the gate charged is not charged again).
   * @returns the seconds to wait when the address's bucket is empty, else undefined.
   */
  private take(ctx: Context): number | undefined {
    if (ctx.state.anonymousCharged) return undefined;
    ctx.state.anonymousCharged = true;
    const decision = this.buckets.take(clientAddress(ctx, this.trustProxy));
    if (decision.allowed) return undefined;
    this.onLimited();
    return decision.retryAfterSeconds;
  }

  /** @throws ApiError 429 with Retry-After once the address's bucket is empty. */
  charge(ctx: Context): void {
    const retryAfter = this.take(ctx);
    if (retryAfter === undefined) return;
    ctx.set('Retry-After', String(retryAfter));
    throw new ApiError(429, 'rate_limited', REFUSAL_MESSAGE);
  }

  /**
   * The first middleware: a request without an accepted key is charged here, and refused with the pre-rendered 429
   * when its address has no budget left (see the module comment for what such an answer leaves out).
   */
  gate(logger: Logger, keyAccepted: (ctx: Context) => boolean) {
    const refuse = async (ctx: Context, retryAfter: number) => {
      this.logRefusal(logger, ctx);
      const holdMs = Math.min(this.holdMs, retryAfter * 1000);
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
      ctx.status = 429;
      ctx.set(NON_DOCUMENT_HEADERS);
      ctx.set('Retry-After', String(retryAfter));
      ctx.type = 'application/json';
      ctx.body = REFUSAL_BODY;
    };
    // Not async itself: a request with an accepted key (nearly all the traffic) goes straight on, without a layer's
    // promise.
    return (ctx: Context, next: Next) => {
      if (keyAccepted(ctx)) return next();
      const retryAfter = this.take(ctx);
      return retryAfter === undefined ? next() : refuse(ctx, retryAfter);
    };
  }

  private logRefusal(logger: Logger, ctx: Context): void {
    this.refusedSinceLog += 1;
    const now = this.now();
    if (now - this.lastLogAt < REFUSAL_LOG_INTERVAL_MS) return;
    logger.warn(
      { refused: this.refusedSinceLog, address: clientAddress(ctx, this.trustProxy) },
      'anonymous requests refused: rate limited',
    );
    this.refusedSinceLog = 0;
    this.lastLogAt = now;
  }
}
