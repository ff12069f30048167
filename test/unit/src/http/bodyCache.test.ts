/**
 * The rendered-body cache (src/http/bodyCache.ts) with the heavy-answer limits on, without Elasticsearch: on a real
 * Koa server and real sockets, requests that wait for the same build are not held behind a first client that stopped
 * reading, whether the answer is kept or too big to keep; in process (contexts whose clients never read, so no
 * socket's buffers take anything), what answers in flight hold is bounded by the budget of answers in flight.
 */
import { once } from 'node:events';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import Koa, { type Context } from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { OverloadedError } from '../../../../core/domain/errors.js';
import { DEFAULT_HEAVY_ANSWERS, type HeavyAnswerLimits } from '../../../../src/config/heavyAnswerLimits.js';
import { BodyCache } from '../../../../src/http/bodyCache.js';
import { ByteBudget } from '../../../../src/http/byteBudget.js';
import { isClientAbort } from '../../../../src/http/errors.js';
import { HeavyAnswers } from '../../../../src/http/heavyAnswers.js';

const KiB = 1024;
const MiB = 1024 * KiB;
let server: Server | undefined;

afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/**
 * An answer of `bytes` in 64 KiB chunks, made as it is read (one buffer handed out again and again, so a test
 * that reads far ahead costs no memory); `pulled` counts what was read of it. With `gate`, the source waits for it
 * after its first chunk (Elasticsearch's next page not in yet).
 */
function answer(bytes: number, fill = 97, gate?: Promise<void>) {
  const chunk = Buffer.alloc(64 * KiB, fill);
  const read = { pulled: 0 };
  const stream = Readable.from(
    (async function* () {
      for (let sent = 0; sent < bytes; sent += chunk.length) {
        if (sent === chunk.length) await gate;
        read.pulled += chunk.length;
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
  return { stream, read };
}

function cacheOf(cacheBytes: number, budgetBytes: number, limits: Partial<HeavyAnswerLimits> = {}) {
  const budget = new ByteBudget(budgetBytes);
  const heavy = new HeavyAnswers({ ...DEFAULT_HEAVY_ANSWERS, ...limits }, budget);
  return { cache: new BodyCache(cacheBytes, heavy, budget), heavy, budget };
}

/**
 * Every request asks for the same answer of `bytes`, as src/http/conditional.ts does: the kept one, else a build. The
 * first build's source waits after its first chunk until a second request has come in (it then waits for that
 * build). The errors the app reports are collected (with no listener Koa prints them).
 */
async function serve(cache: BodyCache, bytes: number) {
  const app = new Koa();
  const errors: Error[] = [];
  app.on('error', (error: Error) => errors.push(error));
  let builds = 0;
  let requests = 0;
  let secondCame!: () => void;
  const gate = new Promise<void>((resolve) => (secondCame = resolve));
  app.use(async (ctx) => {
    if (++requests === 2) secondCame();
    if (await cache.serve(ctx, 'the-key')) return;
    await cache.build(ctx, 'the-key', async () => {
      builds++;
      ctx.type = 'application/json';
      ctx.body = answer(bytes, 97, gate).stream;
    });
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { app, port, errors, builds: () => builds, requests: () => requests };
}

/** A client that sends its request and reads nothing from then on (its socket's buffers fill, then the server's). */
async function stoppedReading(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  return socket;
}

/** A client that reads its whole answer: the status and the body's length. */
async function readWhole(port: number): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'accept-encoding': 'identity' } });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  return { status: response.status, bytes };
}

/** Leaves a client that stopped reading, and takes the error the app reports for it: the client's leaving. */
async function leave(app: Koa, socket: Socket, errors: Error[]): Promise<void> {
  const reported = errors.length > 0 ? Promise.resolve() : once(app, 'error');
  socket.destroy();
  await reported;
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(isClientAbort(error), String(error)).toBe(true);
}

describe('body cache: a first client that stopped reading', () => {
  it('does not hold a request for the same answer behind it when the answer is kept', async () => {
    // 12 MiB: far more than loopback's socket buffers take from a client that reads nothing; kept (at most 16 MiB),
    // with the default heavy-answer limits and budget (a slot each, at the default pace).
    const { cache } = cacheOf(64 * MiB, 32 * MiB, { bytesPerSecond: 0 });
    const { app, port, errors, builds } = await serve(cache, 12 * MiB);
    const stalled = await stoppedReading(port);
    // The second request waits for the first build (its source waits for the second request): it is served the
    // kept answer once Elasticsearch's is read, not once the first client has read it.
    expect(await readWhole(port)).toEqual({ status: 200, bytes: 12 * MiB });
    expect(builds()).toBe(1);
    expect(cache.stats().entries).toBe(1);
    await leave(app, stalled, errors);
  });

  it('does not hold a request for the same answer behind it when the answer is too big to keep', async () => {
    // Keeps at most 1 MiB per answer: the copy is dropped there, the waiter is told and builds its own, and nothing
    // is kept.
    const { cache } = cacheOf(4 * MiB, 32 * MiB, { bytesPerSecond: 0 });
    const { app, port, errors, builds } = await serve(cache, 12 * MiB);
    const stalled = await stoppedReading(port);
    expect(await readWhole(port)).toEqual({ status: 200, bytes: 12 * MiB });
    expect(builds()).toBe(2);
    expect(cache.stats().entries).toBe(0);
    await leave(app, stalled, errors);
  });
});

/** A Koa context of its own, whose client reads nothing until the test takes `ctx.body`; `leave` closes it. */
function context(app: Koa): Context & { leave: () => Promise<void> } {
  const socket = new Socket();
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/';
  req.headers = { 'accept-encoding': 'identity' };
  const res = new ServerResponse(req);
  // As a server's answer is: its socket closing closes it, and ends whatever body Koa was given.
  res.assignSocket(socket);
  const leave = async () => {
    const closed = once(res, 'close');
    res.destroy();
    await closed;
  };
  return Object.assign(app.createContext(req, res), { leave });
}

/** Real turns of the event loop: what the streams do without a client reading is done by then. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Builds the answer `body` for `ctx` under `key`. */
const buildOf = (cache: BodyCache, ctx: Context, key: string, body: Readable) =>
  cache.build(ctx, key, async () => {
    ctx.type = 'application/json';
    ctx.body = body;
  });

async function bytesOf(stream: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes;
}

describe('body cache: answers in flight', () => {
  it('holds no more than the budget for clients that read nothing, and refuses what it has no room for', async () => {
    const app = new Koa();
    // Every answer could be kept (a 64 MiB cache keeps 16 MiB); one slot, room for eight to wait; a 2 MiB budget.
    const limits = { concurrent: 1, queued: 8, stallMs: 0, bytesPerSecond: 0 };
    const { cache, heavy, budget } = cacheOf(64 * MiB, 2 * MiB, limits);
    const answers = [1, 2, 3, 4].map((n) => answer(16 * MiB, n));
    const contexts = answers.map(() => context(app));
    const built = answers.map(({ stream }, i) => buildOf(cache, contexts[i]!, `key-${i}`, stream));
    await settle();
    // Read ahead of clients that take nothing: the budget, a chunk more per answer and the sources' own buffers.
    const pulled = answers.reduce((sum, { read }) => sum + read.pulled, 0);
    expect(pulled).toBeLessThanOrEqual(2 * MiB + 4 * 3 * 64 * KiB);
    expect(budget.takenBytes).toBeLessThanOrEqual(2 * MiB);
    // One has the slot, three wait with what they hold; one more has no room to wait: 503 before its status line.
    expect(heavy.stats()).toEqual({ writing: 1, waiting: 3, stalled: 0 });
    const refused = answer(16 * MiB, 5);
    await expect(buildOf(cache, context(app), 'key-5', refused.stream)).rejects.toBeInstanceOf(OverloadedError);
    expect(refused.stream.destroyed).toBe(true);
    // Not failed: each client reads its whole answer in turn, streamed at its pace once its copy had no more room
    // (none is kept), and everything held is given back.
    for (let i = 0; i < 4; i++) {
      await built[i];
      expect(await bytesOf(contexts[i]!.body as Readable)).toBe(16 * MiB);
      await contexts[i]!.leave();
    }
    expect(cache.stats().entries).toBe(0);
    expect(budget.takenBytes).toBe(0);
    expect(heavy.stats()).toEqual({ writing: 0, waiting: 0, stalled: 0 });
  });

  it('lets a waiting answer whose client left go: its place in the queue, its source and its bytes', async () => {
    const app = new Koa();
    const limits = { concurrent: 1, queued: 1, stallMs: 0, bytesPerSecond: 0 };
    const { cache, heavy, budget } = cacheOf(64 * MiB, 32 * MiB, limits);
    const first = context(app);
    await buildOf(cache, first, 'first', answer(4 * MiB).stream);
    const waiting = context(app);
    // Not to be kept (it is sent compressed as it came): only its first bytes wait for the slot, held.
    waiting.set('Content-Encoding', 'gzip');
    const source = answer(4 * MiB, 2);
    const built = buildOf(cache, waiting, 'waiting', source.stream);
    await settle();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 1 });
    const held = budget.takenBytes;
    await waiting.leave();
    await settle();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 0 });
    await built;
    expect(source.stream.destroyed).toBe(true);
    expect(budget.takenBytes).toBeLessThan(held);
    // The queue has room again: another answer may wait.
    const next = context(app);
    const nextBuilt = buildOf(cache, next, 'next', answer(1 * MiB, 3).stream);
    await settle();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 1 });
    await first.leave();
    await nextBuilt;
    await next.leave();
    expect(heavy.stats()).toMatchObject({ writing: 0, waiting: 0 });
    expect(budget.takenBytes).toBe(0);
  });

  it('holds a kept answer waiting for its slot by its key: one evicted meanwhile is built anew, its slot given back', async () => {
    const app = new Koa();
    // Keeps 4 MiB (1 MiB an answer); every answer over 1 KiB is heavy; one slot.
    const limits = { minBytes: 1024, concurrent: 1, queued: 4, stallMs: 0, bytesPerSecond: 0 };
    const { cache, heavy } = cacheOf(4 * MiB, 32 * MiB, limits);
    const holder = context(app);
    await buildOf(cache, holder, 'held', answer(512 * KiB).stream);
    await settle();
    expect(cache.has('held')).toBe(true);
    // A request for the kept answer waits for the slot the first client holds.
    const waiting = context(app);
    const served = cache.serve(waiting, 'held');
    await settle();
    expect(heavy.stats()).toMatchObject({ writing: 1, waiting: 1 });
    // Meanwhile other answers are kept (HEAD requests: they wait for no slot) and push it out of the cache.
    for (let i = 0; i < 8; i++) {
      const head = context(app);
      head.method = 'HEAD';
      await buildOf(cache, head, `other-${i}`, answer(768 * KiB, i).stream);
    }
    await settle();
    expect(cache.has('held')).toBe(false);
    await holder.leave();
    // Its turn: nothing kept to send, so the caller builds it (as src/http/conditional.ts does), and the slot is free.
    expect(await served).toBe(false);
    expect(heavy.stats()).toMatchObject({ writing: 0, waiting: 0 });
  });
});
