/**
 * Several nodes, one of them frozen (a relay that accepts and never answers, as a SIGSTOPped node does), the
 * other the real Elasticsearch: with the per-attempt bound (ES_ATTEMPT_TIMEOUT_MS, on by default with several
 * nodes) a read routed to the frozen node moves to the other one, and the frozen node is left out of new requests,
 * so no request fails. A read that is only slow on every node is not cut twice: its retry has the rest of the
 * request timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.js';
import { testElasticsearchUrl } from '../support/elasticsearch.js';
import { Relay } from '../support/relay.js';

const forwardBody = { streetname: 'Mekelweg', number: '8' };

describe('a frozen node among living ones', () => {
  let frozen: Relay;
  let alive: Relay;
  let api: TestApi;

  beforeAll(async () => {
    frozen = new Relay(new URL(testElasticsearchUrl()), 'blackhole');
    alive = new Relay(new URL(testElasticsearchUrl()), 'forward');
    await Promise.all([frozen.open(), alive.open()]);
    api = await startTestApi({
      elasticsearchUrl: `${frozen.url},${alive.url}`,
      // Far longer than the attempt bound: a read that waited for it would not fail, it would only be slow.
      requestTimeoutMs: 10_000,
      // No ES_ATTEMPT_TIMEOUT_MS: the default derived for several nodes.
      env: { ELASTICSEARCH_URL: `${frozen.url},${alive.url}`, BREAKER_FAILURES: '1000' },
    });
  });

  afterAll(async () => {
    await api.close();
    await Promise.all([frozen.close(), alive.close()]);
  });

  it('answers every read from the living node, trying the frozen one at most once per connection', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => api.call('POST', '/geocode/forward', { body: forwardBody })),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    // The frozen node was asked (round robin) and then left out: its attempts did not grow with the requests.
    expect(frozen.accepted).toBeGreaterThan(0);
    expect(frozen.accepted).toBeLessThan(20);
  });
});

describe('a slow read on every node', () => {
  const relays: Relay[] = [];
  let api: TestApi;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const relay = new Relay(new URL(testElasticsearchUrl()), 'forward');
      // Every search waits longer than the first attempt's bound, far less than the request timeout.
      relay.slow = { requests: /^POST \/[^ ]*_m?search/, slowMs: 700 };
      relays.push(relay);
    }
    await Promise.all(relays.map((relay) => relay.open()));
    const urls = relays.map((relay) => relay.url).join(',');
    api = await startTestApi({
      elasticsearchUrl: urls,
      requestTimeoutMs: 10_000,
      env: { ELASTICSEARCH_URL: urls, ES_ATTEMPT_TIMEOUT_MS: '300', BREAKER_FAILURES: '1000' },
    });
  });

  afterAll(async () => {
    await api.close();
    await Promise.all(relays.map((relay) => relay.close()));
  });

  it('is answered: the first attempt is cut, the retry on the other node may take the rest of the timeout', async () => {
    const answer = await api.call('POST', '/geocode/forward', { body: forwardBody });
    expect(answer.status).toBe(200);
    // Both nodes were asked: the first attempt was cut and retried elsewhere.
    expect(relays.every((relay) => relay.accepted > 0)).toBe(true);
  });
});
