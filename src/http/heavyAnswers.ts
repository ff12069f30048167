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
 * the body cache (`sendKept`) and one being built (`sendStream`: a first request, an answer too big to keep, any answer
 * with the cache off), so varying a parameter (`simplify`, `bbox`, `name`) to miss the cache skips no limit.
 *
 * The slots bound the service's work, so a slot is held only while the service is what the answer waits for: a
 * client that has not taken the slice handed to it for `stallMs` (its link or its reading is slower than the pace)
 * gives its slot to the next answer and is written on outside the bound, at its own speed, which costs the service
 * next to nothing; otherwise two slow or stalled clients would hold every boundary download behind them. Each such
 * answer still holds what its client has not taken, so at most `stalled` are written outside the bound: past it a
 * slow reader keeps its slot (the queue behind it waits, and past `queued` is refused) until one of them ends, and
 * then moves out. One that takes nothing for `sendTimeoutMs` is cut (nginx's `send_timeout`): it holds a socket and
 * nothing else is coming.
 *
 * Memory: a request waiting for a slot holds nothing of its answer but what the budget of answers in flight allows
 * (a kept body only its key, src/http/bodyCache.ts; one being built its first bytes, src/http/builtBody.ts; one held
 * in memory for it alone its bytes, `send`), and one whose client has gone leaves the queue at once.
 */
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { HeavyAnswerLimits } from '../config/heavyAnswerLimits.js';
import { OverloadedError } from '../../core/domain/errors.js';
import { BuiltBody } from './builtBody.js';
import { type ByteBudget, unboundedBudget } from './byteBudget.js';
import { ClientWatch } from './clientWatch.js';
import { HEAVY_ANSWER_SLICE_BYTES, type SliceSource, slicedBody } from './slicedBody.js';

export interface HeavyAnswerStats {
  /** Answers holding a slot. */
  writing: number;
  /** Answers waiting for one. */
  waiting: number;
  /** Answers that gave their slot up to a slow client, written outside the bound. */
  stalled: number;
}

/**
 * The status logged for a request whose client left while its answer waited for a slot: nothing was sent (nginx's
 * "client closed request").
 */
export const CLIENT_CLOSED_REQUEST = 499;

export class HeavyAnswers {
  private writing = 0;
  private stalled = 0;
  private readonly waiting: { enter: () => void }[] = [];
  /** Slow readers kept in their slot because `stalled` are out already: each moves out when one of those ends. */
  private readonly keptIn: (() => void)[] = [];

  constructor(
    private readonly limits: HeavyAnswerLimits,
    /** Holds an answer held in memory for one request (`send`) and the first bytes of one being built. */
    private readonly budget: ByteBudget = unboundedBudget(),
  ) {}

  stats(): HeavyAnswerStats {
    return { writing: this.writing, waiting: this.waiting.length, stalled: this.stalled };
  }

  /** Whether an answer of `bytes` goes out under the bound: heavy, with the bound on, and with a body (not a HEAD). */
  isHeavy(ctx: Context, bytes: number): boolean {
    return this.limits.concurrent > 0 && bytes >= this.limits.minBytes && ctx.method !== 'HEAD';
  }

  /**
   * Makes `body`, held in memory for this request alone (not kept anywhere), the answer: as it is when it is light;
   * when heavy, once a slot is free, as a sliced stream of the same bytes. A heavy one holds its bytes from the budget
   * from now until it is written or its client is gone; when the budget has no room for them, 503 `overloaded`.
   */
  async send(ctx: Context, body: Buffer): Promise<void> {
    if (!this.isHeavy(ctx, body.length)) {
      ctx.body = body;
      return;
    }
    if (!this.budget.take(body.length)) throw new OverloadedError();
    const give = once(() => this.budget.give(body.length));
    let entered: boolean;
    try {
      entered = await this.enter(ctx);
    } catch (error) {
      give();
      throw error;
    }
    if (!entered) {
      give();
      return closedRequest(ctx);
    }
    ctx.body = this.sliced(ctx, body, give);
    ctx.length = body.length;
  }

  /**
   * A heavy kept answer (the body cache's, `bytes` long): it waits for a slot holding nothing of it, and `body` finds it
   * again once it has one. False when it was let go meanwhile (evicted): the slot is given back and the caller builds
   * the answer instead. A client gone while it waited ends the request without an answer (true: nothing to build).
   */
  async sendKept(ctx: Context, bytes: number, body: () => Buffer | undefined): Promise<boolean> {
    if (!(await this.enter(ctx))) {
      closedRequest(ctx);
      return true;
    }
    const kept = body();
    if (!kept) {
      this.leave();
      return false;
    }
    ctx.body = this.sliced(ctx, kept);
    ctx.length = bytes;
    return true;
  }

  /**
   * The same for an answer still being built (its size is known only once it ends). Before the status line it reads
   * up to `minBytes` of it, held from the budget (none left: 503): a body that ends before that is light and leaves
   * whole; a longer one is heavy, waits for a slot like any other (a full queue is still a clean 503) and is sliced and
   * paced from there on, read at its client's pace. Its bytes are counted before compression, since the wire size of a
   * body compressed on the fly is not known in advance. Without the bound (or for a HEAD) it streams as it is.
   */
  async sendStream(ctx: Context, stream: Readable | BuiltBody): Promise<void> {
    const body = stream instanceof BuiltBody ? stream : new BuiltBody(stream, this.budget);
    const { minBytes, concurrent } = this.limits;
    if (concurrent === 0 || ctx.method === 'HEAD') {
      ctx.body = body.stream();
      return;
    }
    let entered: boolean;
    try {
      if (await body.peek(minBytes)) {
        ctx.body = body.whole();
        return;
      }
      entered = await this.enter(ctx);
    } catch (error) {
      body.destroy();
      throw error;
    }
    if (!entered) {
      body.destroy();
      return closedRequest(ctx);
    }
    ctx.body = this.sliced(ctx, body);
  }

  /**
   * The answer as slices, holding a slot (taken by the caller) until it is written, the client stalls (then outside
   * the bound, while there is room there) or leaves; `ended` is called once it is written or abandoned.
   */
  private sliced(ctx: Context, body: Buffer | SliceSource, ended?: () => void): Readable {
    let place: 'slot' | 'outside' | 'ended' = 'slot';
    const moveOut = () => {
      if (place !== 'slot') return;
      place = 'outside';
      this.stalled++;
      this.leave();
    };
    const stall = () => {
      if (place !== 'slot') return;
      if (this.stalled < this.limits.stalled) moveOut();
      else this.keptIn.push(moveOut);
    };
    const end = () => {
      const kept = this.keptIn.indexOf(moveOut);
      if (kept >= 0) this.keptIn.splice(kept, 1);
      if (place === 'slot') this.leave();
      else if (place === 'outside') {
        this.stalled--;
        // Room outside: the first slow reader kept in its slot for want of it moves out.
        while (this.stalled < this.limits.stalled && this.keptIn.length > 0) this.keptIn.shift()!();
      }
      place = 'ended';
      ended?.();
    };
    const res = ctx.res;
    const client = new ClientWatch(this.limits, stall, () => res.destroy());
    const gone = () => {
      client.stop();
      end();
    };
    if (res.closed || res.destroyed) gone();
    else res.once('close', gone);
    return slicedBody(body, this.limits.bytesPerSecond, HEAVY_ANSWER_SLICE_BYTES, client);
  }

  /**
   * A slot: true once it is this answer's; false when its client left while it waited (it has left the queue then).
   * Rejects with OverloadedError when `queued` wait already.
   */
  private enter(ctx: Context): Promise<boolean> {
    const res = ctx.res;
    if (res.closed || res.destroyed) return Promise.resolve(false);
    if (this.writing < this.limits.concurrent) {
      this.writing++;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= this.limits.queued) return Promise.reject(new OverloadedError());
    // The slot passes straight to the first waiter (writing stays the same), so none can overtake it.
    return new Promise((resolve) => {
      const waiter = {
        enter: () => {
          res.off('close', left);
          resolve(true);
        },
      };
      const left = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(waiter);
      res.once('close', left);
    });
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next.enter();
    else this.writing--;
  }
}

/** Nothing is sent: the client has gone. Logged as such, and nothing asks for the answer's body any more. */
function closedRequest(ctx: Context): void {
  ctx.status = CLIENT_CLOSED_REQUEST;
  ctx.body = '';
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
