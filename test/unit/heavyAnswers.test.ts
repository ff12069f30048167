/**
 * The heavy-answer bound (src/http/heavyAnswers.ts) without a server: the bytes a sliced answer sends, the order in
 * which waiting answers get a slot, the queue's bound, and the configuration that sets them.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/service.js';
import { OverloadedError } from '../../src/domain/errors.js';
import { HeavyAnswers, slicedBody } from '../../src/http/heavyAnswers.js';

/** Just what HeavyAnswers touches of a Koa context; `res` closes when the test says the answer is written. */
function fakeContext(method = 'GET') {
  const res = Object.assign(new EventEmitter(), { closed: false, destroyed: false });
  const ctx = { method, res, body: undefined as unknown, length: undefined as number | undefined };
  return { ctx, written: () => res.emit('close') };
}

const read = async (stream: Readable) => Buffer.concat(await stream.toArray());

describe('heavy answers', () => {
  it('sends a sliced answer as the same bytes, paced or not', async () => {
    const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    expect((await read(slicedBody(body, 0, 4096))).equals(body)).toBe(true);
    expect((await read(slicedBody(body, 50_000_000, 65536))).equals(body)).toBe(true);
    expect((await read(slicedBody(Buffer.alloc(0), 0))).length).toBe(0);
  });

  it('passes light answers and HEADs through, and gives heavy ones a slot in the order they came', async () => {
    const heavy = new HeavyAnswers({ minBytes: 10, concurrent: 1, queued: 5, bytesPerSecond: 0 });
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
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 2 });
    first.written();
    await waiting[0];
    expect(order).toEqual(['second']);
    second.written();
    await waiting[1];
    expect(order).toEqual(['second', 'third']);
    third.written();
    third.written();
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0 });
  });

  it('refuses a heavy answer once the queue is full', async () => {
    const heavy = new HeavyAnswers({ minBytes: 1, concurrent: 1, queued: 1, bytesPerSecond: 0 });
    await heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2));
    void heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2));
    await expect(heavy.send(fakeContext().ctx as unknown as Context, Buffer.alloc(2))).rejects.toBeInstanceOf(
      OverloadedError,
    );
  });

  it('is configured from the environment, bounded by default', () => {
    expect(loadConfig({}).heavyAnswers).toEqual({
      minBytes: 256 * 1024,
      concurrent: 2,
      queued: 256,
      bytesPerSecond: 8 * 1024 * 1024,
    });
    expect(
      loadConfig({
        HEAVY_ANSWER_BYTES: '1000',
        HEAVY_ANSWERS_CONCURRENT: '0',
        HEAVY_ANSWERS_QUEUED: '3',
        HEAVY_ANSWER_BYTES_PER_SECOND: '0',
      }).heavyAnswers,
    ).toEqual({ minBytes: 1000, concurrent: 0, queued: 3, bytesPerSecond: 0 });
    expect(() => loadConfig({ HEAVY_ANSWERS_CONCURRENT: '-1' })).toThrow(/HEAVY_ANSWERS_CONCURRENT/);
  });
});
