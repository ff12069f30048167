/**
 * Per-key rate limit (RATE_LIMIT_RPS, RATE_LIMIT_BURST): a token bucket per key fingerprint, refilled at `rps`
 * tokens a second up to `burst`. A request needs one token to start and costs what it asked Elasticsearch for:
 * one token per search (src/http/workMeter.ts), at least one; the rest is taken when it is answered, into debt if
 * need be, so a large batch is served whole and the key then waits until the debt is repaid. Every keyed answer carries the draft-ietf-httpapi-ratelimit-headers fields
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`: seconds until the bucket is full again); a
 * request with no token left is 429 `rate_limited` with `Retry-After` (seconds until the next token).
 */
import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';
import { WorkMeter } from './workMeter.js';

export interface RateLimit {
  rps: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the bucket is full again. */
  resetSeconds: number;
  /** Whole seconds until one token is back (0 when one is there). */
  retryAfterSeconds: number;
}

export class TokenBuckets {
  /** In order of last use (a Map keeps insertion order): the first is the least recently used. */
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param now milliseconds; injected so tests need not wait on the wall clock.
   * @param maxKeys buckets kept at most: past it the least recently used is forgotten (that client starts full
   *   again), so clients that can make up names (forged or many addresses) cannot grow the table without bound.
   */
  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
    private readonly maxKeys = Number.POSITIVE_INFINITY,
  ) {}

  /** Buckets held now (full ones are not held). */
  get size(): number {
    return this.buckets.size;
  }

  private keep(key: string, bucket: Bucket): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  take(key: string): Decision {
    const { rps, burst } = this.limit;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rps);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    // A full bucket is the same as none: only clients that used tokens recently take memory.
    if (bucket.tokens >= burst) this.buckets.delete(key);
    else this.keep(key, bucket);
    return this.decision(allowed, bucket.tokens);
  }

  /** Takes `units` more from `key`'s bucket whatever it holds (the rest of an answered request's cost). */
  charge(key: string, units: number): Decision {
    const { rps, burst } = this.limit;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rps) - units;
    bucket.at = now;
    this.keep(key, bucket);
    return this.decision(true, bucket.tokens);
  }

  private decision(allowed: boolean, tokens: number): Decision {
    const { rps, burst } = this.limit;
    return {
      allowed,
      limit: burst,
      remaining: Math.max(0, Math.floor(tokens)),
      resetSeconds: Math.ceil((burst - tokens) / rps),
      retryAfterSeconds: allowed ? 0 : Math.ceil((1 - tokens) / rps),
    };
  }
}

function setHeaders(ctx: Context, decision: Decision): void {
  ctx.set('RateLimit-Limit', String(decision.limit));
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
}

/** After authentication: only keyed requests (`ctx.state.keyFingerprint`) to keyed paths are counted. */
export function rateLimit(buckets: TokenBuckets, onLimited: () => void = () => {}) {
  return async (ctx: Context, next: Next) => {
    const key: string | undefined = ctx.state.keyFingerprint;
    if (!key || ctx.state.openPath) return next();
    const decision = buckets.take(key);
    setHeaders(ctx, decision);
    if (!decision.allowed) {
      onLimited();
      ctx.set('Retry-After', String(decision.retryAfterSeconds));
      throw new ApiError(429, 'rate_limited', 'Too many requests for this API key; retry later');
    }
    const meter = new WorkMeter();
    try {
      await meter.run(next);
    } finally {
      // The start took one token; a failed request pays for the searches it made too.
      if (meter.searches > 1) setHeaders(ctx, buckets.charge(key, meter.searches - 1));
    }
  };
}
