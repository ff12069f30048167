/**
 * The rendered-body cache (src/http/bodyCache.ts) on a real Koa server and real sockets, without Elasticsearch: an
 * answer too big to keep must not make the requests that wait for the same build wait on the first client.
 */
import type { AddressInfo } from 'node:net';
import { get, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyCache } from '../../src/http/bodyCache.js';
import { DEFAULT_HEAVY_ANSWERS } from '../../src/config/heavyAnswerLimits.js';
import { HeavyAnswers } from '../../src/http/heavyAnswers.js';

const MiB = 1024 * 1024;
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A 32 MiB answer, far more than loopback's socket buffers take from a client that reads nothing. */
function hugeBody(): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < 512; i++) yield Buffer.alloc(64 * 1024, 97);
    })(),
  );
}

async function serve(cache: BodyCache, onBuild: () => void): Promise<string> {
  const app = new Koa();
  app.use((ctx) =>
    cache.build(ctx, 'the-key', async () => {
      onBuild();
      ctx.type = 'application/json';
      ctx.body = hugeBody();
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

const responseOf = (url: string) =>
  new Promise<IncomingMessage>((resolve, reject) => get(url, resolve).on('error', reject));

describe('body cache', () => {
  it('does not hold a request for the same answer behind a first client that stopped reading', async () => {
    // Keeps at most 1 MiB per answer; heavy answers unbounded here (their own limits are tested elsewhere).
    const cache = new BodyCache(4 * MiB, new HeavyAnswers({ ...DEFAULT_HEAVY_ANSWERS, concurrent: 0 }));
    let builds = 0;
    const url = await serve(cache, () => builds++);
    const stalled = await responseOf(url);
    stalled.pause();
    // The second request for the same key would wait for the first build; it must not wait for its client.
    const second = responseOf(url);
    const timeout = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000).unref());
    const first = await Promise.race([second, timeout]);
    expect(first).not.toBe('waited');
    const answer = first as IncomingMessage;
    expect(answer.statusCode).toBe(200);
    let bytes = 0;
    for await (const chunk of answer) bytes += (chunk as Buffer).length;
    expect(bytes).toBe(32 * MiB);
    // Too big to keep: the waiter built its own, and nothing was kept.
    expect(builds).toBe(2);
    expect(cache.stats().entries).toBe(0);
    stalled.destroy();
  }, 30_000);
});
