import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoop, quantile } from '../../../../bench/support/openLoop.js';

describe('the open-loop load of the chaos flood phase', () => {
  let server: http.Server;
  let url: string;
  let held: http.ServerResponse[] = [];
  let connections = 0;
  const seen: { method: string; path: string; key: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', key: req.headers['x-api-key'] as string, body });
        // /hold is answered only when the test says so: a server that has stopped answering.
        if (req.url === '/hold') held.push(res);
        else if (req.url === '/missing') res.writeHead(404).end();
        else if (req.url === '/slow') setTimeout(() => res.end('ok'), 200);
        else res.end('ok');
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends rate x seconds requests in turn, with their bodies and headers, and counts answers by status', async () => {
    seen.length = 0;
    const result = await openLoop({
      url,
      requests: [
        { method: 'POST', path: '/forward', body: '{"streetname":"Mekelweg"}' },
        { method: 'GET', path: '/missing' },
      ],
      headers: { 'x-api-key': 'k' },
      rate: 40,
      seconds: 0.5,
    });
    expect(result.sent).toBe(20);
    expect(result.statuses).toEqual({ 200: 10, 404: 10 });
    expect(result.failedAt).toHaveLength(10);
    expect(seen.filter((r) => r.method === 'POST' && r.body === '{"streetname":"Mekelweg"}')).toHaveLength(10);
    expect(seen.every((r) => r.key === 'k')).toBe(true);
  });

  it('goes on sending while earlier requests wait: a stalled server does not lower the rate it is offered', async () => {
    seen.length = 0;
    held = [];
    const running = openLoop({
      url,
      requests: [{ method: 'GET', path: '/hold' }],
      headers: {},
      rate: 40,
      seconds: 0.5,
    });
    // Every request arrives although none has been answered (a closed loop would have sent one per connection).
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(20);
    for (const res of held) res.end('late');
    const result = await running;
    expect(result.statuses).toEqual({ 200: 20 });
  });

  it('with `connections`, opens them before the run and opens no other while the server is slow; the wait counts', async () => {
    connections = 0;
    const running = openLoop({
      url,
      requests: [{ method: 'GET', path: '/slow' }],
      headers: {},
      rate: 40,
      seconds: 0.5,
      connections: 4,
      keepSamples: true,
    });
    await expect.poll(() => seen.some((r) => r.path === '/slow'), { timeout: 10_000 }).toBe(true);
    const duringRun = connections;
    const result = await running;
    // Four connections, all opened before the first request (a `GET /` each), and no other since.
    expect(duringRun).toBe(4);
    expect(connections).toBe(4);
    expect(result.statuses).toEqual({ 200: 20 });
    // 20 requests of 200 ms over 4 connections: the last (due at 475 ms) is answered after five rounds (1,000 ms):
    // its wait for a free connection is in its latency (a lower bound: a loaded machine only adds to it).
    expect(result.max_ms).toBeGreaterThanOrEqual(500);
    expect(result.samples.every((s) => s.connectMs === 0)).toBe(true);
  });

  it('takes the nearest-rank quantile', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile(values, 1)).toBe(100);
    expect(quantile([], 0.99)).toBe(0);
  });
});
