/**
 * Fairness between heavy boundary downloads and cheap lookups. A map client looping over the world's countries
 * (~630 KB of brotli per answer) must not take the machine from geocoding clients: heavy answers (at least
 * `minBytes` on the wire) are written at most `concurrent` at a time, in FIFO order, each a slice per event-loop
 * turn (geocoding requests that arrive meanwhile are read, sent to Elasticsearch and answered between two slices
 * rather than after a 600 KB write) and at most `bytesPerSecond` each, as a proxy's per-connection rate limit
 * would pace them. Without a pace, a client that asks again as soon as an answer is in takes every spare cycle:
 * on loopback a 600 KB write completes at once, so a bound on concurrent answers alone bounds nothing.
 * More than `queued` waiting: 503 `overloaded` with Retry-After, as the Elasticsearch guard answers. The client
 * receives the same bytes and headers (Content-Length included).
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { OverloadedError } from '../domain/errors.js';

export interface HeavyAnswerLimits {
  /** An answer of at least this many bytes on the wire is heavy. */
  minBytes: number;
  /** Heavy answers being written at once; 0 turns the bound (and the slicing) off. */
  concurrent: number;
  /** Heavy answers waiting for a slot at most; one more is refused. */
  queued: number;
  /** Pace of one heavy answer; 0: unpaced. */
  bytesPerSecond: number;
}

/**
 * The defaults, which HEAVY_ANSWER* variables override (src/config/service.ts). Heavy: a boundary collection of a
 * country or more (the world's countries are ~630 KB of brotli, a province's municipalities ~15 KB). Two written at
 * once, each at up to 8 MiB/s (64 Mbit/s: the world's countries in 80 ms, faster than most map clients' own links),
 * so boundary downloads take at most ~16 MiB/s of the service and geocoding keeps the rest of a small box; a few
 * hundred waiting is far more than the map clients of a deployment ask at one moment, and each waits in memory only
 * as a request.
 */
export const DEFAULT_HEAVY_ANSWERS: HeavyAnswerLimits = {
  minBytes: 256 * 1024,
  concurrent: 2,
  queued: 256,
  bytesPerSecond: 8 * 1024 * 1024,
};

export interface HeavyAnswerStats {
  writing: number;
  waiting: number;
}

/**
 * 64 KiB: a loopback or LAN socket takes it in one write, small enough that a turn of the event loop spent on it
 * is a fraction of a millisecond.
 */
export const HEAVY_ANSWER_SLICE_BYTES = 64 * 1024;

/**
 * `body` as a stream that hands out one slice per event-loop turn (setImmediate lets pending I/O run first), and
 * at most `bytesPerSecond` (0: as fast as the client takes it): a slice is due when the bytes before it would have
 * taken that long at the rate, as a proxy's per-connection rate limit paces a download.
 */
export function slicedBody(body: Buffer, bytesPerSecond: number, sliceBytes = HEAVY_ANSWER_SLICE_BYTES): Readable {
  let offset = 0;
  let started: number | undefined;
  return new Readable({
    highWaterMark: sliceBytes,
    read() {
      const push = () => {
        if (offset >= body.length) {
          this.push(null);
          return;
        }
        const end = Math.min(offset + sliceBytes, body.length);
        // subarray: a view, not a copy.
        this.push(body.subarray(offset, end));
        offset = end;
      };
      started ??= performance.now();
      const wait = bytesPerSecond > 0 ? started + (offset / bytesPerSecond) * 1000 - performance.now() : 0;
      if (wait >= 1) setTimeout(push, wait);
      else setImmediate(push);
    },
  });
}

export class HeavyAnswers {
  private writing = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: HeavyAnswerLimits) {}

  stats(): HeavyAnswerStats {
    return { writing: this.writing, waiting: this.waiting.length };
  }

  /**
   * Makes `body` the answer: as it is when it is light (or a HEAD, which sends no body); when heavy, once a slot is
   * free, as a sliced stream of the same bytes. The slot is held until the answer is written or the client is gone.
   */
  async send(ctx: Context, body: Buffer): Promise<void> {
    const { minBytes, concurrent } = this.limits;
    if (concurrent === 0 || body.length < minBytes || ctx.method === 'HEAD') {
      ctx.body = body;
      return;
    }
    await this.enter();
    const release = once(() => this.leave());
    const res = ctx.res;
    if (res.closed || res.destroyed) release();
    else res.once('close', release);
    ctx.body = slicedBody(body, this.limits.bytesPerSecond);
    ctx.length = body.length;
  }

  private enter(): Promise<void> {
    if (this.writing < this.limits.concurrent) {
      this.writing++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.queued) return Promise.reject(new OverloadedError());
    // The slot passes straight to the first waiter (writing stays the same), so none can overtake it.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.writing--;
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
