/**
 * Reliability at cluster scale against the real Elasticsearch: the circuit breaker (a relay that accepts and never
 * answers, then forwards again), load shedding, per-key rate limits, key rotation and /metrics.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/config/service.js';
import { ErrorResponse, Health } from '../../../../src/schemas/responses.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../support/api.js';
import { testElasticsearchUrl } from '../../../support/elasticsearch.js';
import { Relay } from '../../../support/relay.js';

/** Long, so "answered at once" (under a fifth of it) cannot be confused with "answered at the timeout". */
const LONG_TIMEOUT_MS = 10_000;
const AT_ONCE_MS = LONG_TIMEOUT_MS / 5;
const forwardBody = { streetname: 'Mekelweg', number: '8' };

/** Retries `check` until it holds (bounded: the behaviour is polled, never waited for by a fixed sleep). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await call();
  return [result, Date.now() - started];
}

/**
 * An API whose Elasticsearch is behind a relay that accepts connections and never answers (until the test sets
 * `relay.mode = 'forward'`), with a long request timeout. Read `relay()` and `api()` inside tests.
 */
function behindHangingRelay(env: NodeJS.ProcessEnv): { relay: () => Relay; api: () => TestApi } {
  let relay: Relay;
  let api: TestApi;
  beforeAll(async () => {
    relay = new Relay(new URL(testElasticsearchUrl()), 'blackhole');
    await relay.open();
    api = await startTestApi({ elasticsearchUrl: relay.url, requestTimeoutMs: LONG_TIMEOUT_MS, env });
  });
  afterAll(async () => {
    await api.close();
    await relay.close();
  });
  return { relay: () => relay, api: () => api };
}

describe('circuit breaker', () => {
  // Stall detection off: this is the consecutive-failure rule alone.
  const { relay, api } = behindHangingRelay({ BREAKER_FAILURES: '1', BREAKER_PROBE_MS: '50', BREAKER_STALL_MS: '0' });

  it('waits for the timeout, then opens and answers 503 at once, then closes once Elasticsearch answers', async () => {
    const [first, waited] = await timed(() => api().call('POST', '/geocode/forward', { body: forwardBody }));
    expect(first.status).toBe(503);
    expect(waited).toBeGreaterThanOrEqual(LONG_TIMEOUT_MS - 100);

    const [open, took] = await timed(() => api().call('POST', '/geocode/forward', { body: forwardBody }));
    expect(open.status).toBe(503);
    expect(ErrorResponse.parse(open.body).error.code).toBe('backend_unavailable');
    expect(open.headers.get('retry-after')).toBe('1');
    expect(took).toBeLessThan(AT_ONCE_MS);

    const health = await api().call('GET', '/health');
    expect(health.status).toBe(503);
    expect(Health.parse(health.body).guard?.breaker).toBe('open');
    const metrics = await api().call('GET', '/metrics');
    expect(metrics.text).toMatch(/^geocoder_breaker_open 1$/m);

    // Elasticsearch reachable again: the background probe closes the breaker without any request's help.
    relay().mode = 'forward';
    await eventually(async () => Health.parse((await api().call('GET', '/health')).body).guard?.breaker === 'closed');
    const back = await api().call('POST', '/geocode/forward', { body: forwardBody });
    expect(back.status).toBe(200);
  });
});

describe('stall detection (on by default)', () => {
  // Consecutive failures alone would need 1,000 timeouts: only the stall window (BREAKER_STALL_MS, default) can.
  const { relay, api } = behindHangingRelay({ BREAKER_FAILURES: '1000', BREAKER_PROBE_MS: '50' });
  const breakerOpen = async () => /^geocoder_breaker_open 1$/m.test((await api().call('GET', '/metrics')).text);

  it('opens the breaker and answers the waiting requests 503 long before their timeout', async () => {
    const [answers, took] = await timed(() =>
      Promise.all(Array.from({ length: 4 }, () => api().call('POST', '/geocode/forward', { body: forwardBody }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
    expect(ErrorResponse.parse(answers[0]!.body).error.code).toBe('backend_unavailable');
    expect(took).toBeLessThan(LONG_TIMEOUT_MS / 2);
    expect(await breakerOpen()).toBe(true);
    const [refused, refusedIn] = await timed(() => api().call('POST', '/geocode/forward', { body: forwardBody }));
    expect(refused.status).toBe(503);
    expect(refusedIn).toBeLessThan(AT_ONCE_MS);

    // Elasticsearch answers again: the probe closes the breaker.
    relay().mode = 'forward';
    await eventually(async () => !(await breakerOpen()));
    expect((await api().call('POST', '/geocode/forward', { body: forwardBody })).status).toBe(200);
  });

  it('answers a slow read on a living Elasticsearch instead of opening the breaker', async () => {
    relay().mode = 'forward';
    await eventually(async () => !(await breakerOpen()));
    // Every search waits three stall windows; the probe (GET /) is answered at once.
    relay().slow = { requests: /^POST \/[^ ]*_m?search/, slowMs: 3000 };
    try {
      const answer = await api().call('POST', '/geocode/forward', { body: forwardBody });
      expect(answer.status).toBe(200);
      expect(await breakerOpen()).toBe(false);
    } finally {
      relay().slow = undefined;
    }
  });
});

describe('load shedding', () => {
  const { relay, api } = behindHangingRelay({
    MAX_IN_FLIGHT_SEARCHES: '1',
    MAX_QUEUED_REQUESTS: '0',
    BREAKER_FAILURES: '1000',
    // The held request keeps Elasticsearch silent: with stall detection on (the default) the breaker would open after
    // a second and a slow machine's second request would meet it (backend_unavailable) instead of the bound.
    BREAKER_STALL_MS: '0',
  });

  it('answers 503 overloaded at once while the bound is taken by a hanging request', async () => {
    // Held by a search that needs nothing loaded first (forward loads the city names once per generation, and a
    // second forward would wait on that shared load instead of meeting the bound).
    const holding = api().call('GET', '/autocomplete?q=mekelweg');
    // The held request's search has reached the (hanging) backend: the one slot is taken.
    await eventually(async () => relay().accepted > 0);

    const [shed, took] = await timed(() => api().call('POST', '/lookup/street', { body: forwardBody }));
    expect(shed.status).toBe(503);
    expect(ErrorResponse.parse(shed.body).error.code).toBe('overloaded');
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(took).toBeLessThan(AT_ONCE_MS);

    expect((await holding).status).toBe(503);
    const metrics = await api().call('GET', '/metrics');
    expect(Number(/^geocoder_shed_total (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(1);
  });
});

describe('per-key rate limit', () => {
  const otherKey = 'other-key-0123456789';
  let clock = 0;
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({
      env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3', API_KEYS: otherKey },
      now: () => clock,
    });
  });

  afterAll(() => api.close());

  it('allows a burst of 3, refuses the 4th with 429 and the RateLimit headers, and allows again after a refill', async () => {
    for (const remaining of ['2', '1', '0']) {
      const res = await api.call('GET', '/countries');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(remaining);
    }
    const limited = await api.call('GET', '/countries');
    expect(limited.status).toBe(429);
    expect(ErrorResponse.parse(limited.body).error.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('3');

    // Another key has its own bucket; an unkeyed answer carries no RateLimit fields.
    expect((await api.call('GET', '/countries', { headers: { 'x-api-key': otherKey } })).status).toBe(200);
    expect((await api.call('GET', '/health')).headers.get('ratelimit-limit')).toBeNull();

    clock += 1000;
    const refilled = await api.call('GET', '/countries');
    expect(refilled.status).toBe(200);
    expect(refilled.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('API key rotation', () => {
  let dir: string;
  let file: string;
  let api: TestApi;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'geocoder-keys-'));
    file = join(dir, 'keys');
    await writeFile(file, 'first-key-0123456789\n');
    api = await startTestApi({ env: { API_KEYS_FILE: file } });
  });

  afterAll(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  const statusWith = async (key: string) =>
    (await api.call('GET', '/countries', { headers: { 'x-api-key': key } })).status;

  it('accepts a key added to the file and refuses a removed one, without a restart', async () => {
    expect(await statusWith('first-key-0123456789')).toBe(200);
    expect(await statusWith('second-key-0123456789')).toBe(401);

    // Replaced as a deployment tool would: a new file renamed over the old one, the new key as a digest.
    await writeFile(`${file}.new`, `# rotated\nsha256:${sha256Hex('second-key-0123456789')}\n`);
    const { rename } = await import('node:fs/promises');
    await rename(`${file}.new`, file);

    await eventually(async () => (await statusWith('second-key-0123456789')) === 200, 10_000);
    expect(await statusWith('first-key-0123456789')).toBe(401);
    // API_KEYS (here: the test's key) stay accepted whatever the file holds.
    expect((await api.call('GET', '/countries', { headers: { 'x-api-key': TEST_API_KEY } })).status).toBe(200);
  });
});

describe('GET /metrics', () => {
  const metricsKey = 'metrics-key-0123456789';
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ env: { METRICS_KEY: metricsKey } });
  });

  afterAll(() => api.close());

  /** `name{labels} value` lines of the Prometheus text format. */
  function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
    for (const line of text.split('\n')) {
      const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const found = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
    }
    return undefined;
  }

  it('counts requests by route and status, latency, Elasticsearch round trips and batch sizes', async () => {
    await api.call('GET', '/countries');
    await api.call('GET', '/countries');
    await api.call('GET', '/countries', { headers: { 'x-api-key': 'wrong' } });
    await api.call('POST', '/geocode/forward', { body: forwardBody });

    const res = await api.call('GET', '/metrics', { headers: { 'x-api-key': '' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'geocoder_http_requests_total', { route: '/countries', method: 'GET', status: '200' })).toBe(2);
    expect(sample(text, 'geocoder_http_requests_total', { route: 'unmatched', status: '401' })).toBe(1);
    expect(
      sample(text, 'geocoder_http_requests_total', { route: '/geocode/forward', method: 'POST', status: '200' }),
    ).toBe(1);
    expect(sample(text, 'geocoder_http_request_duration_seconds_count', { route: '/countries' })).toBe(2);
    expect(sample(text, 'geocoder_http_requests_in_flight')).toBe(1); // the scrape itself
    expect(sample(text, 'geocoder_breaker_open')).toBe(0);
    expect(sample(text, 'geocoder_elasticsearch_round_trips_total')).toBeGreaterThan(0);
    expect(sample(text, 'geocoder_elasticsearch_batch_size_count')).toBeGreaterThan(0);
    expect(sample(text, 'geocoder_rate_limited_total')).toBe(0);
  });

  it('needs METRICS_KEY from anywhere but a direct loopback client', async () => {
    const proxied = { 'x-forwarded-for': '203.0.113.7' };
    const without = await api.call('GET', '/metrics', { headers: proxied });
    expect(without.status).toBe(401);
    expect(ErrorResponse.parse(without.body).error.code).toBe('unauthorized');
    expect((await api.call('GET', '/metrics', { headers: { ...proxied, 'x-metrics-key': 'wrong' } })).status).toBe(401);
    expect((await api.call('GET', '/metrics', { headers: { ...proxied, 'x-metrics-key': metricsKey } })).status).toBe(
      200,
    );
    const bearer = await api.call('GET', '/metrics', {
      headers: { ...proxied, authorization: `Bearer ${metricsKey}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.text).toContain('# TYPE geocoder_http_requests_total counter');
  });

  it('is loopback-only (403) from elsewhere when no METRICS_KEY is configured', async () => {
    const open = await startTestApi();
    try {
      const res = await open.call('GET', '/metrics', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(res.status).toBe(403);
      expect(ErrorResponse.parse(res.body).error.code).toBe('forbidden');
      expect((await open.call('GET', '/metrics')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
