/**
 * The heavy-answer bound (src/http/heavyAnswers.ts) without a server: the bytes a sliced answer sends, the order in
 * which waiting answers get a slot, the queue's bound, and the configuration that sets them.
 */
import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import type { Context } from 'koa';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadConfig } from '../../../../src/config/service.js';
import { OverloadedError } from '../../../../core/domain/errors.js';
import { ByteBudget } from '../../../../src/http/byteBudget.js';
import { ClientWatch } from '../../../../src/http/clientWatch.js';
import { CLIENT_CLOSED_REQUEST, HeavyAnswers } from '../../../../src/http/heavyAnswers.js';
import { slicedBody } from '../../../../src/http/slicedBody.js';

/** No stall or send timeout: the fake contexts below never read their answers. */
const UNWATCHED = { stallMs: 0, stalled: 0, sendTimeoutMs: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Just what HeavyAnswers touches of a Koa context; `res` closes when the test says the answer is written. */
function fakeContext(method = 'GET') {
  const res: EventEmitter & { closed: boolean; destroyed: boolean; destroy(): void } = Object.assign(
    new EventEmitter(),
    {
      closed: false,
      destroyed: false,
      destroy() {
        res.destroyed = true;
        res.emit('close');
      },
    },
  );
  const ctx = { method, res, status: 200, body: undefined as unknown, length: undefined as number | undefined };
  return { ctx, written: () => res.emit('close') };
}

const read = async (stream: Readable) => Buffer.concat(await stream.toArray());

/** Real turns of the event loop (slices are handed out on setImmediate, which the fake clock leaves real). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** The fake clock forward by `ms`, a millisecond at a time, letting the streams' real turns run in between. */
async function advance(ms: number): Promise<void> {
  for (let i = 0; i < ms; i++) {
    await settle();
    await vi.advanceTimersByTimeAsync(1);
  }
  await settle();
}

describe('heavy answers', () => {
  it('sends a sliced answer as the same bytes, paced or not', async () => {
    const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    expect((await read(slicedBody(body, 0, 4096))).equals(body)).toBe(true);
    expect((await read(slicedBody(body, 50_000_000, 65536))).equals(body)).toBe(true);
    expect((await read(slicedBody(Buffer.alloc(0), 0))).length).toBe(0);
  });

  it('passes light answers and HEADs through, and gives heavy ones a slot in the order they came', async () => {
    const heavy = new HeavyAnswers({ ...UNWATCHED, minBytes: 10, concurrent: 1, queued: 5, bytesPerSecond: 0 });
    const light = fakeContext();
    await heavy.send(light.ctx as unknown as Context, Buffer.alloc(9));
    expect(Buffer.isBuffer(light.ctx.body)).toBe(true);
    const head = fakeContext('HEAD');
    await heavy.send(head.ctx as unknown as Context, Buffer.alloc(10));
    expect(Buffer.isBuffer(head.ctx.body)).toBe(true);

    const first = fakeContext();
    await heavy.send(first.ctx as unknown as Context, Buffer.alloc(10));
    expect(first.ctx.body).toBeInstanceOf(Readable);
    expect(first.ctx.length).toBe(10);
    const order: string[] = [];
    const second = fakeContext();
    const third = fakeContext();
    const waiting = [
      heavy.send(second.ctx as unknown as Context, Buffer.alloc(10)).then(() => order.push('second')),
      heavy.send(third.ctx as unknown as Context, Buffer.alloc(10)).then(() => order.push('third')),
    ];
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 2, stalled: 0 });
    first.written();
    await waiting[0];
    expect(order).toEqual(['second']);
    second.written();
    await waiting[1];
    expect(order).toEqual(['second', 'third']);
    third.written();
    third.written();
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0, stalled: 0 });
  });

  it('refuses a heavy answer once the queue is full', async () => {
    const heavy = new HeavyAnswers({ ...UNWATCHED, minBytes: 1, concurrent: 1, queued: 1, bytesPerSecond: 0 });
    await heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2));
    void heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2));
    await expect(heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2))).rejects.toBeInstanceOf(
      OverloadedError,
    );
  });

  it('holds an answer still being built to the same bound: light ones leave whole, heavy ones wait for a slot', async () => {
    const heavy = new HeavyAnswers({ ...UNWATCHED, minBytes: 100, concurrent: 1, queued: 0, bytesPerSecond: 0 });
    const chunks = (n: number) => Readable.from(Array.from({ length: n }, (_, i) => Buffer.alloc(40, i)));
    const light = fakeContext();
    await heavy.sendStream(light.ctx as unknown as Context, chunks(2));
    // Read whole before the status line: a buffer, no slot taken.
    expect(light.ctx.body).toEqual(Buffer.concat([Buffer.alloc(40, 0), Buffer.alloc(40, 1)]));
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0, stalled: 0 });

    const first = fakeContext();
    await heavy.sendStream(first.ctx as unknown as Context, chunks(10));
    expect(first.ctx.body).toBeInstanceOf(Readable);
    expect(heavy.stats().writing).toBe(1);
    // The one slot is taken and nothing may wait: the next heavy build is refused before its status line...
    const source = chunks(10);
    await expect(heavy.sendStream(fakeContext().ctx as unknown as Context, source)).rejects.toBeInstanceOf(
      OverloadedError,
    );
    // ...and its source is let go (an Elasticsearch paging would be closed).
    await sleep(0);
    expect(source.destroyed).toBe(true);
    // The first answer's bytes are all there, in the chunks they were built in.
    const bytes = await read(first.ctx.body as Readable);
    expect(bytes.length).toBe(400);
    expect(bytes.subarray(360).equals(Buffer.alloc(40, 9))).toBe(true);
    first.written();
    expect(heavy.stats().writing).toBe(0);
  });

  it('is configured from the environment, bounded by default', () => {
    expect(loadConfig({}).heavyAnswers).toEqual({
      minBytes: 256 * 1024,
      concurrent: 2,
      queued: 256,
      bytesPerSecond: 8 * 1024 * 1024,
      stallMs: 250,
      stalled: 8,
      sendTimeoutMs: 60_000,
    });
    expect(
      loadConfig({
        HEAVY_ANSWER_BYTES: '1000',
        HEAVY_ANSWERS_CONCURRENT: '0',
        HEAVY_ANSWERS_QUEUED: '3',
        HEAVY_ANSWER_BYTES_PER_SECOND: '0',
        HEAVY_ANSWER_STALL_MS: '0',
        HEAVY_ANSWERS_STALLED: '3',
        HEAVY_ANSWER_SEND_TIMEOUT_MS: '5000',
      }).heavyAnswers,
    ).toEqual({
      minBytes: 1000,
      concurrent: 0,
      queued: 3,
      bytesPerSecond: 0,
      stallMs: 0,
      stalled: 3,
      sendTimeoutMs: 5000,
    });
    expect(() => loadConfig({ HEAVY_ANSWER_STALL_MS: 'soon' })).toThrow(/HEAVY_ANSWER_STALL_MS/);
    expect(() => loadConfig({ HEAVY_ANSWERS_CONCURRENT: '-1' })).toThrow(/HEAVY_ANSWERS_CONCURRENT/);
    expect(() => loadConfig({ HEAVY_ANSWERS_STALLED: '-1' })).toThrow(/HEAVY_ANSWERS_STALLED/);
    expect(loadConfig({}).answersInFlightBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ ANSWERS_IN_FLIGHT_BYTES: '1048576' }).answersInFlightBytes).toBe(1024 * 1024);
    expect(() => loadConfig({ ANSWERS_IN_FLIGHT_BYTES: '0' })).toThrow(/ANSWERS_IN_FLIGHT_BYTES/);
  });

  it('tells a client that leaves its slice untaken apart from one that waits for the pace', async () => {
    const events: string[] = [];
    const watched = () =>
      new ClientWatch(
        { stallMs: 100, sendTimeoutMs: 400 },
        () => events.push('stall'),
        () => events.push('timeout'),
      );
    // A client that takes every slice at once, paced to a slice every 125 ms: longer than the stall bound, but it
    // waits for the pace, not the other way round, so it never stalls.
    // The clock is the test's (timers and performance.now): a loaded machine's late timers cannot change the story.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const body = Buffer.alloc(2 * 1024);
      const paced = read(slicedBody(body, 4 * 1024, 512, watched()));
      await advance(1000);
      expect((await paced).equals(body)).toBe(true);
      await advance(450);
      expect(events).toEqual([]);

      // A client that takes the first slice and then nothing: its slot after 100 ms, cut after 400 ms.
      const stream = slicedBody(Buffer.alloc(8 * 1024), 0, 1024, watched());
      stream.once('data', () => stream.pause());
      await advance(99);
      expect(events).toEqual([]);
      await advance(2);
      expect(events).toEqual(['stall']);
      await advance(297);
      expect(events).toEqual(['stall']);
      await advance(2);
      expect(events).toEqual(['stall', 'timeout']);
      stream.destroy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the slot of an answer its client stopped taking to the next one, and cuts that client later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const heavy = new HeavyAnswers({
      minBytes: 10,
      concurrent: 1,
      queued: 5,
      bytesPerSecond: 0,
      stallMs: 100,
      stalled: 8,
      sendTimeoutMs: 600,
    });
    const stalled = fakeContext();
    const body = Buffer.alloc(1024 * 1024);
    await heavy.send(stalled.ctx as unknown as Context, body);
    // The answer's real stream into a client that takes its first slice and then nothing.
    let taken = 0;
    const client = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        if (taken > 0) return; // never calls back: the client stopped reading
        taken += chunk.length;
        done();
      },
    });
    (stalled.ctx.body as Readable).pipe(client);

    const next = fakeContext();
    let served = false;
    void heavy.send(next.ctx as unknown as Context, Buffer.alloc(20)).then(() => (served = true));
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 1, stalled: 0 });
    // The stall bound (100 ms of the test's clock) and not before: the slot passes to the waiting answer.
    await advance(95);
    expect(served).toBe(false);
    await advance(10);
    expect(served).toBe(true);
    expect(stalled.ctx.res.destroyed).toBe(false);
    expect(taken).toBeLessThan(body.length);

    // Still taking nothing: cut at the send timeout (600 ms), which frees no second slot.
    await advance(400);
    expect(stalled.ctx.res.destroyed).toBe(false);
    await advance(200);
    expect(stalled.ctx.res.destroyed).toBe(true);
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 0, stalled: 0 });
    next.written();
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0, stalled: 0 });
  });
});

describe('heavy answers: what waits and what is written outside the bound', () => {
  it('lets a waiting answer whose client left go at once: out of the queue, its source closed, its bytes given back', async () => {
    const budget = new ByteBudget(1000);
    const heavy = new HeavyAnswers({ ...UNWATCHED, minBytes: 10, concurrent: 1, queued: 1, bytesPerSecond: 0 }, budget);
    const first = fakeContext();
    await heavy.send(first.ctx as unknown as Context, Buffer.alloc(100));
    // A held answer waits with its bytes; its client leaves before its turn.
    const gone = fakeContext();
    const waited = heavy.send(gone.ctx as unknown as Context, Buffer.alloc(300));
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 1 });
    gone.written();
    await settle();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 0 });
    await waited;
    expect(budget.takenBytes).toBe(100);
    // Nothing was sent: the request is logged as the client's leaving, not as an answer.
    expect(gone.ctx.status).toBe(CLIENT_CLOSED_REQUEST);

    // The queue has room again (one waits at most), and an answer being built whose client leaves lets its source go.
    const source = Readable.from(Array.from({ length: 10 }, () => Buffer.alloc(40)));
    const building = fakeContext();
    const built = heavy.sendStream(building.ctx as unknown as Context, source);
    await settle();
    expect(heavy.stats().waiting).toBe(1);
    building.written();
    await built;
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 0 });
    expect(source.destroyed).toBe(true);
    expect(budget.takenBytes).toBe(100);
    first.written();
    expect(heavy.stats()).toMatchObject({ writing: 0, waiting: 0 });
    expect(budget.takenBytes).toBe(0);
  });

  it('refuses a heavy answer held in memory when the budget of answers in flight has no room for it', async () => {
    const budget = new ByteBudget(250);
    const heavy = new HeavyAnswers({ ...UNWATCHED, minBytes: 10, concurrent: 1, queued: 5, bytesPerSecond: 0 }, budget);
    const first = fakeContext();
    await heavy.send(first.ctx as unknown as Context, Buffer.alloc(200));
    await expect(heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(100))).rejects.toBeInstanceOf(
      OverloadedError,
    );
    // A light one needs no room; the first's bytes are given back once it is written.
    const light = fakeContext();
    await heavy.send(light.ctx as unknown as Context, Buffer.alloc(9));
    expect(Buffer.isBuffer(light.ctx.body)).toBe(true);
    first.written();
    expect(budget.takenBytes).toBe(0);
  });

  it('writes at most `stalled` slow answers outside the bound: past it a slow one keeps its slot until one ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const heavy = new HeavyAnswers({
      minBytes: 10,
      concurrent: 1,
      queued: 5,
      bytesPerSecond: 0,
      stallMs: 100,
      stalled: 1,
      sendTimeoutMs: 0,
    });
    /** A heavy answer into a client that takes its first slice and then nothing. */
    const slowReader = async () => {
      const reader = fakeContext();
      let served = false;
      const sent = heavy.send(reader.ctx as unknown as Context, Buffer.alloc(1024 * 1024)).then(() => {
        served = true;
        let taken = 0;
        (reader.ctx.body as Readable).pipe(
          new Writable({
            highWaterMark: 1024,
            write(chunk: Buffer, _encoding, done) {
              if (taken > 0) return;
              taken += chunk.length;
              done();
            },
          }),
        );
      });
      return { ...reader, sent, served: () => served };
    };
    const first = await slowReader();
    await first.sent;
    const second = await slowReader();
    const third = await slowReader();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 2 });
    // The first stalls: out of its slot (the one place outside), and the second has it.
    await advance(105);
    expect(second.served()).toBe(true);
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 1 });
    // The second stalls too, with no room outside: it keeps its slot, and the third waits on.
    await advance(105);
    expect(third.served()).toBe(false);
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 1, stalled: 1 });
    // The first ends (its client gone): the second moves out, and the third has the slot.
    first.written();
    await settle();
    expect(third.served()).toBe(true);
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 0, stalled: 1 });
    second.written();
    third.written();
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0, stalled: 0 });
  });
});
