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
 *
 * The slots bound the service's work, so a slot is held only while the service is what the answer waits for: a
 * client that has not taken the slice handed to it for `stallMs` (its link or its reading is slower than the pace)
 * gives its slot to the next answer and is written on outside the bound, at its own speed, which costs the service
 * next to nothing; otherwise two slow or stalled clients would hold every boundary download behind them. One that
 * takes nothing for `sendTimeoutMs` is cut (nginx's `send_timeout`): it holds a socket and nothing else is coming.
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
  /** A client that has not taken its next slice for this long gives its slot up (0: it never does). */
  stallMs: number;
  /** A client that has taken nothing for this long is cut (0: never). */
  sendTimeoutMs: number;
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
  // A client taking a 64 KiB slice in more than 250 ms reads at under 256 KiB/s: its link, not the service, is
  // what its answer waits for.
  stallMs: 250,
  sendTimeoutMs: 60_000,
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
export function slicedBody(
  body: Buffer,
  bytesPerSecond: number,
  sliceBytes = HEAVY_ANSWER_SLICE_BYTES,
  client?: ClientWatch,
): Readable {
  let offset = 0;
  let started: number | undefined;
  return new Readable({
    highWaterMark: sliceBytes,
    read() {
      client?.asked();
      const push = () => {
        if (offset >= body.length) {
          client?.stop();
          this.push(null);
          return;
        }
        const end = Math.min(offset + sliceBytes, body.length);
        // subarray: a view, not a copy.
        this.push(body.subarray(offset, end));
        offset = end;
        client?.handedOut();
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
    const client = new ClientWatch(this.limits, release, () => res.destroy());
    const gone = () => {
      client.stop();
      release();
    };
    if (res.closed || res.destroyed) gone();
    else res.once('close', gone);
    ctx.body = slicedBody(body, this.limits.bytesPerSecond, HEAVY_ANSWER_SLICE_BYTES, client);
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

/**
 * How long the client of one sliced answer has left the slice handed to it untaken, with one timer at a time:
 * `onStall` once it has waited `stallMs`, `onTimeout` once it has waited `sendTimeoutMs`. Waiting for the pace is
 * not the client's wait: the stream has been asked for its next slice then.
 */
export class ClientWatch {
  /** When the slice now waiting for the client was handed out; undefined while the stream has been asked. */
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stalled = false;
  private stopped = false;

  constructor(
    private readonly limits: Pick<HeavyAnswerLimits, 'stallMs' | 'sendTimeoutMs'>,
    private readonly onStall: () => void,
    private readonly onTimeout: () => void,
  ) {}

  handedOut(): void {
    if (this.stopped) return;
    this.since = performance.now();
    if (!this.timer) this.arm(this.nextLimit(), 0);
  }

  asked(): void {
    this.since = undefined;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next bound to watch for (ms of waiting), or undefined when none is left. */
  private nextLimit(): number | undefined {
    const { stallMs, sendTimeoutMs } = this.limits;
    if (!this.stalled && stallMs > 0) return stallMs;
    return sendTimeoutMs > 0 ? sendTimeoutMs : undefined;
  }

  /** `waited`: how long the slice now out has waited for the client already. */
  private arm(limit: number | undefined, waited: number): void {
    if (limit === undefined) return;
    this.timer = setTimeout(() => this.check(), Math.max(1, limit - waited)).unref();
  }

  private check(): void {
    this.timer = undefined;
    // Asked since: nothing to watch until the next slice is handed out (which arms the timer again).
    if (this.stopped || this.since === undefined) return;
    const waited = performance.now() - this.since;
    const { stallMs, sendTimeoutMs } = this.limits;
    if (!this.stalled && stallMs > 0 && waited >= stallMs) {
      this.stalled = true;
      this.onStall();
    }
    if (sendTimeoutMs > 0 && waited >= sendTimeoutMs) {
      this.stop();
      this.onTimeout();
      return;
    }
    this.arm(this.nextLimit(), waited);
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
