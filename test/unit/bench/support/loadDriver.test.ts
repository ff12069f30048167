import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drive, type Scenario } from '../../../../bench/support/loadDriver.js';

describe("the bench's fixed-rate scenarios", () => {
  let server: http.Server;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    // Every request but the connections' opening `GET /` takes 200 ms: a server busy for a moment.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => (req.url === '/' ? res.end('ok') : setTimeout(() => res.end('ok'), 200)));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const scenario = (keptConnections?: number): Scenario => ({
    name: 'autocomplete keystrokes',
    target: 'api',
    url,
    headers: {},
    requests: [{ method: 'GET', path: '/autocomplete?q=mek' }],
    ...(keptConnections ? { keptConnections } : {}),
  });
  const settings = { connections: 16, duration: 0.5, warmup: 0.25 };

  it('run a scenario with kept connections over those alone, its warm-up too, however slow the answers', async () => {
    connections = 0;
    const row = await drive(settings, scenario(4), 40);
    // The warm-up's four and the measured run's four, each opened before its first request: none opened for a
    // request due while the others were busy (at 40/s and 200 ms each, eight are in flight at once).
    expect(connections).toBe(8);
    expect(row.requests).toBe(20);
    expect(row.errors + row.non2xx).toBe(0);
  });

  it('without them, open a connection for each request due while the others are busy (independent clients)', async () => {
    connections = 0;
    await drive(settings, scenario(), 40);
    expect(connections).toBeGreaterThan(8);
  });
});
