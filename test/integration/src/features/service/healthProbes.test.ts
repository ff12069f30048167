/**
 * Liveness and readiness apart, one coalesced Elasticsearch check however many callers, the per-address limit of
 * anonymous requests (beside keyed searches that keep their own budget), what anonymous callers are told, and the
 * public paths' other spellings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_KINDS } from '../../../../../core/elasticsearch/documents.js';
import { HEALTH_CACHE_MS } from '../../../../../src/indexes/health.js';
import { ErrorResponse, Health, Liveness, Readiness } from '../../../../../src/schemas/responses.js';
import { ENDPOINTS } from '../../../../../src/wiring/endpoints.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';

const anonymous = { 'x-api-key': '' };
/** Not loopback as far as the service can tell: a proxy forwarded it (TRUST_PROXY is off, so this is all it means). */
const remote = { ...anonymous, 'x-forwarded-for': '203.0.113.7' };

async function roundTrips(api: TestApi): Promise<number> {
  const metrics = await api.call('GET', '/metrics');
  return Number(/^geocoder_elasticsearch_round_trips_total (\d+)$/m.exec(metrics.text)?.[1]);
}

describe('liveness and readiness', () => {
  let api: TestApi;
  let unreachable: TestApi;
  /** The health check cache's clock (milliseconds): it moves only when a test moves it. */
  let clock = 0;
  beforeAll(async () => {
    api = await startTestApi({ now: () => clock });
    // Nothing listens on port 9: connections are refused at once.
    unreachable = await startTestApi({ elasticsearchUrl: 'http://127.0.0.1:9', requestTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await api.close();
    await unreachable.close();
  });

  it('answers liveness without Elasticsearch and readiness from it', async () => {
    const live = await unreachable.call('GET', '/health/live', { headers: anonymous });
    expect(live.status).toBe(200);
    expect(Liveness.parse(live.body).status).toBe('ok');
    const notReady = await unreachable.call('GET', '/health/ready', { headers: anonymous });
    expect(notReady.status).toBe(503);
    expect(Readiness.parse(notReady.body).status).toBe('unavailable');

    const ready = await api.call('GET', '/health/ready', { headers: anonymous });
    expect(ready.status).toBe(200);
    expect(Readiness.parse(ready.body).status).toBe('ok');
  });

  it('asks Elasticsearch once for many concurrent health callers', async () => {
    // Any earlier check ages out of the cache, and the clock stands still while the burst runs (however slowly a
    // loaded machine sends it): this burst needs exactly one new check.
    clock += HEALTH_CACHE_MS;
    const before = await roundTrips(api);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.call('GET', i % 2 ? '/health' : '/health/ready', { headers: anonymous }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // One check is a handful of calls (cluster health, the node's version, one per index kind), not 40 of them;
    // and there was one (the stale answer was not served).
    const checks = (await roundTrips(api)) - before;
    expect(checks).toBeGreaterThan(0);
    expect(checks).toBeLessThanOrEqual(2 + INDEX_KINDS.length);
  });

  it('answers an anonymous caller its status alone, from loopback too, and the figures only with a key', async () => {
    // Behind a reverse proxy on the same host every client is 127.0.0.1: where the caller is proves nothing.
    const keyed = { 'x-forwarded-for': '203.0.113.7' };
    for (const headers of [anonymous, remote, { 'x-api-key': 'made-up-key' }]) {
      const shown = await api.call('GET', '/health', { headers });
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual({ status: 'ok' });
    }
    const full = await api.call('GET', '/health', { headers: keyed });
    const body = Health.parse(full.body);
    expect(body.elasticsearch?.version).toMatch(/^\d+\.\d+/);
    expect(Object.values(body.indexes ?? {})[0]?.index).toContain('-');
    expect(full.body.body_cache).toEqual({
      entries: expect.any(Number),
      bytes: expect.any(Number),
      max_bytes: expect.any(Number),
    });
    expect(full.body.tile_seeding).toEqual({ state: 'off' });
    expect(full.body.guard).toEqual({ breaker: 'closed', in_flight: expect.any(Number), queued: expect.any(Number) });
  });

  it('answers a public path spelt with a trailing slash 404 with or without a key, never 401', async () => {
    // Every path that answers without a key: the open endpoints (their declarations) and the pages' files.
    const open = ENDPOINTS.filter((e) => e.access !== 'key' && !e.path.includes('{')).map((e) => e.path);
    const paths = [...open, '/docs/index.html', '/map/app.js'];
    expect(paths).toEqual(expect.arrayContaining(['/health', '/health/ready', '/openapi.json', '/metrics']));
    for (const path of paths) {
      for (const spelling of [`${path}/`, `${path}//`]) {
        for (const headers of [anonymous, {}]) {
          const answer = await api.call('GET', spelling, { headers });
          // A dialect's public path reads its trailing slash as the path (src/http/dialectSlash.ts).
          if (path.startsWith('/nominatim/')) expect([200, 404], spelling).toContain(answer.status);
          else expect({ spelling, status: answer.status }).toEqual({ spelling, status: 404 });
        }
      }
    }
    // The pages' folders are their index (`/docs/`, `/map/`), as before.
    expect((await api.call('GET', '/docs/', { headers: anonymous })).status).toBe(200);
    // A path that is not public still needs a key before anything says whether it exists.
    expect((await api.call('GET', '/countries/', { headers: anonymous })).status).toBe(401);
  });
});

describe('anonymous requests are limited per address', () => {
  let api: TestApi;
  let clock = 0;
  beforeAll(async () => {
    api = await startTestApi({
      // Refusals at once: the hold is tested on its own below.
      env: { ANON_RATE_LIMIT_RPS: '1', ANON_RATE_LIMIT_BURST: '3', RATE_LIMIT_RPS: '100', ANON_REFUSAL_HOLD_MS: '0' },
      now: () => clock,
    });
  });
  afterAll(() => api.close());

  it('answers 429 with Retry-After once the address has spent its budget, while keyed searches go on', async () => {
    clock = 0;
    expect((await api.call('GET', '/health/live', { headers: anonymous })).status).toBe(200);
    expect((await api.call('POST', '/geocode/forward', { headers: anonymous, body: {} })).status).toBe(401);
    const preflight = await api.call('OPTIONS', '/geocode/forward', {
      headers: { ...anonymous, origin: 'https://maps.example.org', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    for (const path of ['/health', '/openapi.json', '/map/']) {
      const refused = await api.call('GET', path, { headers: anonymous });
      expect(refused.status).toBe(429);
      expect(ErrorResponse.parse(refused.body).error.code).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toBe('1');
    }
    const refusedPreflight = await api.call('OPTIONS', '/geocode/forward', {
      headers: { ...anonymous, origin: 'https://maps.example.org', 'access-control-request-method': 'POST' },
    });
    expect(refusedPreflight.status).toBe(429);

    // Keyed requests spend their key's bucket, not the address's: they go on, health with a key too.
    const keyed = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
    expect(keyed.status).toBe(200);
    expect((await api.call('GET', '/health', { headers: { 'x-api-key': TEST_API_KEY } })).status).toBe(200);

    clock += 1000;
    expect((await api.call('GET', '/health/live', { headers: anonymous })).status).toBe(200);
  });
});

describe('a refused anonymous flood', () => {
  it('is answered 429 with the envelope and security headers, logged as one summary line, not a line each', async () => {
    const lines: { msg: string; [key: string]: unknown }[] = [];
    // A clock that stands still: one address, one token, and every refusal within the same second.
    const api = await startTestApi({
      env: { ANON_RATE_LIMIT_RPS: '1', ANON_RATE_LIMIT_BURST: '1', ANON_REFUSAL_HOLD_MS: '0' },
      now: () => 0,
      logSink: (line) => lines.push(line),
    });
    try {
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push(await api.call('GET', '/health/live', { headers: anonymous }));
      expect(answers[0]?.status).toBe(200);
      const refused = answers.slice(1);
      expect(refused.every((answer) => answer.status === 429)).toBe(true);
      const refusal = refused[0]!;
      expect(ErrorResponse.parse(refusal.body).error.code).toBe('rate_limited');
      expect(refusal.headers.get('content-type')).toMatch(/^application\/json/);
      expect(refusal.headers.get('retry-after')).toBe('1');
      expect(refusal.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refusal.headers.get('content-security-policy')).toContain("default-src 'none'");

      // The admitted request has its request line; the 19 refusals one summary line between them.
      expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1);
      const summaries = lines.filter((line) => line.msg === 'anonymous requests refused: rate limited');
      expect(summaries).toHaveLength(1);
      expect(summaries[0]?.refused).toBe(1);
      // A keyed request is not refused by the address's empty budget.
      expect(
        (await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } })).status,
      ).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('a refused anonymous request is held', () => {
  it('gets its 429 only after the hold: a keyed request sent later on another connection is answered first', async () => {
    // A hold far longer than any answer (the refusal's Retry-After is 60 s at one token a minute).
    const api = await startTestApi({
      env: { ANON_RATE_LIMIT_RPS: String(1 / 60), ANON_RATE_LIMIT_BURST: '1', ANON_REFUSAL_HOLD_MS: '30000' },
    });
    try {
      expect((await api.call('GET', '/health/live', { headers: anonymous })).status).toBe(200);
      const order: string[] = [];
      const refused = api.call('GET', '/health/live', { headers: anonymous }).then((answer) => {
        order.push(`anonymous ${answer.status}`);
        return answer;
      });
      const keyed = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
      order.push(`keyed ${keyed.status}`);
      expect(order).toEqual(['keyed 200']);
      // Closing the server's connections ends the held request; what it got is not the point here.
      await api.close();
      await refused.catch(() => undefined);
    } finally {
      await api.close().catch(() => undefined);
    }
  });
});
