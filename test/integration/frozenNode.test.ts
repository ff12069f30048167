/**
 * Several nodes, one of them frozen (a relay that accepts and never answers, as a SIGSTOPped node does), the
 * other the real Elasticsearch: with ES_ATTEMPT_TIMEOUT_MS a read routed to the frozen node moves to the other
 * one, and the frozen node is left out of new requests, so no request fails.
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
      env: { ES_ATTEMPT_TIMEOUT_MS: '500', BREAKER_FAILURES: '1000' },
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
