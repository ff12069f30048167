/**
 * What clients see when Elasticsearch goes away, hangs, or answers with an internal failure. The cluster is
 * real; a TCP relay between the API and it lets the test cut and restore the connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_CACHE_MS } from '../../../../src/indexes/health.js';
import { ErrorResponse, ForwardResult, Health } from '../../../../src/schemas/responses.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { createTestClient, testElasticsearchUrl, uniqueIndexPrefix } from '../../../support/elasticsearch.js';
import { Relay } from '../../../support/relay.js';

const forwardBody = { streetname: 'Mekelweg', number: '8' };

describe('Elasticsearch stopped, then back', () => {
  let relay: Relay;
  let api: TestApi;
  /** The API's clock (the health check's cache): moved by the test, not by the machine. */
  let clock = 0;

  beforeAll(async () => {
    relay = new Relay(new URL(testElasticsearchUrl()));
    await relay.open();
    api = await startTestApi({
      elasticsearchUrl: `http://127.0.0.1:${relay.port}`,
      requestTimeoutMs: 2000,
      // The answers themselves, not the circuit breaker (test/integration/core/elasticsearch/reliability.test.ts): it stays closed.
      // Failures alone must not open the breaker here, nor the stall window while Elasticsearch is down.
      env: { BREAKER_FAILURES: '1000', BREAKER_STALL_MS: '0' },
      now: () => clock,
    });
  });

  afterAll(async () => {
    await api.close();
    await relay.close();
  });

  it('answers 503 backend_unavailable while it is unreachable and 200 once it is back', async () => {
    const before = await api.call('POST', '/geocode/forward', { body: forwardBody });
    expect(before.status).toBe(200);
    ForwardResult.parse(before.body);

    await relay.close();
    const down = await api.call('POST', '/geocode/forward', { body: forwardBody });
    expect(down.status).toBe(503);
    expect(ErrorResponse.parse(down.body).error.code).toBe('backend_unavailable');
    expect(down.headers.get('retry-after')).toBe('1');
    const health = await api.call('GET', '/health');
    expect(health.status).toBe(503);
    expect(Health.parse(health.body).status).toBe('unavailable');

    await relay.open();
    const after = await api.call('POST', '/geocode/forward', { body: forwardBody });
    expect(after.status).toBe(200);
    expect(ForwardResult.parse(after.body)).toEqual(ForwardResult.parse(before.body));
    // One health check serves every caller for HEALTH_CACHE_MS (src/indexes/health.ts): the failed one is still
    // the answer until then, on the API's clock; past it, the next asks Elasticsearch again.
    expect((await api.call('GET', '/health')).status).toBe(503);
    clock += HEALTH_CACHE_MS;
    expect((await api.call('GET', '/health')).status).toBe(200);
  });
});

describe('Elasticsearch hanging', () => {
  let relay: Relay;
  let api: TestApi;

  beforeAll(async () => {
    relay = new Relay(new URL(testElasticsearchUrl()), 'blackhole');
    await relay.open();
    api = await startTestApi({ elasticsearchUrl: `http://127.0.0.1:${relay.port}`, requestTimeoutMs: 300 });
  });

  afterAll(async () => {
    await api.close();
    await relay.close();
  });

  it('answers 503 after the configured timeout instead of holding the client', async () => {
    const started = Date.now();
    const res = await api.call('POST', '/lookup/street', { body: forwardBody });
    expect(res.status).toBe(503);
    expect(ErrorResponse.parse(res.body).error.code).toBe('backend_unavailable');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('indexes missing or broken', () => {
  const prefix = uniqueIndexPrefix('broken');
  const client = createTestClient();
  let api: TestApi;

  beforeAll(async () => {
    // An areas index whose `name` is analysed text cannot be sorted: Elasticsearch answers 400, a server fault.
    await client.indices.create({
      index: `${prefix}areas`,
      mappings: { properties: { name: { type: 'text' } } },
    });
    api = await startTestApi({ indexPrefix: prefix });
  });

  afterAll(async () => {
    await api.close();
    await client.indices.delete({ index: `${prefix}areas` }, { ignore: [404] });
    await client.close();
  });

  it('answers 503 when the indexes have not been loaded yet', async () => {
    const res = await api.call('POST', '/lookup/street', { body: forwardBody });
    expect(res.status).toBe(503);
    expect(ErrorResponse.parse(res.body).error.code).toBe('backend_unavailable');
  });

  it('says so on /health (503 not_loaded, the missing indexes null) instead of "ok"', async () => {
    const res = await api.call('GET', '/health');
    expect(res.status).toBe(503);
    const body = Health.parse(res.body);
    expect(body.status).toBe('not_loaded');
    expect(body.indexes?.addresses).toBeNull();
    expect(body.indexes?.buildings).toBeNull();
    expect(body.elasticsearch?.cluster_status).toMatch(/green|yellow/);
  });

  it('answers 500 internal_error without leaking internals when Elasticsearch rejects a query', async () => {
    const res = await api.call('GET', '/countries');
    expect(res.status).toBe(500);
    const body = ErrorResponse.parse(res.body);
    expect(body.error).toEqual({ code: 'internal_error', message: 'Internal server error' });
    expect(res.text).not.toMatch(/fielddata|exception|elasticsearch/i);
  });
});
