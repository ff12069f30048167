/**
 * Fairness between heavy boundary downloads and cheap lookups. A map client looping over the world's countries
 * (~630 KB of brotli per answer) must not take the machine from geocoding clients: heavy answers (at least
 * `minBytes` on the wire) are written at most `concurrent` at a time, in FIFO order, each a slice per event-loop
 * turn (geocoding requests that arrive meanwhile are read, sent to Elasticsearch and answered between two slices
 * rather than after a 600 KB write) and at most `bytesPerSecond` each, as a proxy's per-connection rate limit
 * would pace them. Without a pace, a client that asks again as soon as an answer is in takes every spare cycle:
 * on loopback a 600 KB write completes at once, so a bound on concurrent answers alone bounds nothing.
 * More than `queued` waiting: 503 `overloaded` with Retry-After, as the Elasticsearch guard answers. The client
 * receives the same bytes and headers (Content-Length included). This holds for every heavy answer: one served from
 * the body cache (`send`) and one being built (`sendStream`: a first request, an answer too big to keep, any answer
 * with the cache off), so varying a parameter (`simplify`, `bbox`, `name`) to miss the cache skips no limit.
 *
 * The slots bound the service's work, so a slot is held only while the service is what the answer waits for: a
 * client that has not taken the slice handed to it for `stallMs` (its link or its reading is slower than the pace)
 * gives its slot to the next answer and is written on outside the bound, at its own speed, which costs the service
 * next to nothing; otherwise two slow or stalled clients would hold every boundary download behind them. One that
 * takes nothing for `sendTimeoutMs` is cut (nginx's `send_timeout`): it holds a socket and nothing else is coming.
 */
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { HeavyAnswerLimits } from '../config/heavyAnswerLimits.js';
import { OverloadedError } from '../../core/domain/errors.js';
import { ClientWatch } from './clientWatch.js';
import { HEAVY_ANSWER_SLICE_BYTES, iteratorSource, readAhead, type SliceSource, slicedBody } from './slicedBody.js';

export interface HeavyAnswerStats {
  writing: number;
  waiting: number;
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
    ctx.body = this.sliced(ctx, body);
    ctx.length = body.length;
  }

  /**
   * The same for an answer still being built (a stream: its size is known only once it ends). Before the status line
   * it reads up to `minBytes` of it: a body that ends before that is light and leaves whole; a longer one is heavy,
   * waits for a slot like any other (a full queue is still a clean 503) and is sliced and paced from there on. Its
   * bytes are counted before compression, since the wire size of a body compressed on the fly is not known in advance.
   */
  async sendStream(ctx: Context, body: Readable): Promise<void> {
    const { minBytes, concurrent } = this.limits;
    if (concurrent === 0 || ctx.method === 'HEAD') return;
    const rest = body[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
    const { head, read, ended } = await readAhead(rest, minBytes);
    if (ended) {
      ctx.body = Buffer.concat(head, read);
      return;
    }
    try {
      await this.enter();
    } catch (error) {
      void rest.return?.().catch(() => {});
      throw error;
    }
    ctx.body = this.sliced(ctx, iteratorSource(head, rest));
  }

  /** The answer as slices, holding a slot (taken by the caller) until it is written, the client stalls or leaves. */
  private sliced(ctx: Context, body: Buffer | SliceSource): Readable {
    const release = once(() => this.leave());
    const res = ctx.res;
    const client = new ClientWatch(this.limits, release, () => res.destroy());
    const gone = () => {
      client.stop();
      release();
    };
    if (res.closed || res.destroyed) gone();
    else res.once('close', gone);
    return slicedBody(body, this.limits.bytesPerSecond, HEAVY_ANSWER_SLICE_BYTES, client);
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
