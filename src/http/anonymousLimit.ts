/**
 * Requests that carry no valid key (health checks, the pages, the OpenAPI document, CORS preflights, 401s) are
 * limited per client address (ANON_RATE_LIMIT_RPS, ANON_RATE_LIMIT_BURST) with their own token buckets, so a
 * flood of them is answered 429 at once and never spends what keyed searches need.
 */
import type { Context, Next } from 'koa';
import { clientAddress } from './clientAddress.js';
import { ApiError, errorBody } from './errors.js';
import type { TokenBuckets } from './rateLimit.js';

export class AnonymousLimit {
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly trustProxy: boolean,
    private readonly onLimited: () => void = () => {},
  ) {}

  /** @throws ApiError 429 with Retry-After once the address's bucket is empty. */
  charge(ctx: Context): void {
    const decision = this.buckets.take(clientAddress(ctx, this.trustProxy));
    if (decision.allowed) return;
    this.onLimited();
    ctx.set('Retry-After', String(decision.retryAfterSeconds));
    throw new ApiError(429, 'rate_limited', 'Too many requests without an API key from this address; retry later');
  }
}

/**
 * Preflights are answered by the CORS policy, outside the error envelope (src/app.ts): charge them here and
 * answer a refusal with the envelope directly.
 */
export function limitPreflights(limit: AnonymousLimit | undefined) {
  return async (ctx: Context, next: Next) => {
    if (!limit || ctx.method !== 'OPTIONS') return next();
    try {
      limit.charge(ctx);
    } catch (error) {
      const refusal = error as ApiError;
      ctx.status = refusal.status;
      ctx.body = errorBody(refusal);
      return;
    }
    return next();
  };
}
