/**
 * Several nodes, one of them frozen (a relay that accepts and never answers, as a SIGSTOPped node does), the
 * other the real Elasticsearch: with the per-attempt bound (ES_ATTEMPT_TIMEOUT_MS, on by default with several
 * nodes) a read routed to the frozen node moves to the other one, and the frozen node is left out of new requests,
 * so no request fails. A read that is only slow on every node is not cut twice: its retry has the rest of the
 * request timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { testElasticsearchUrl } from '../../../support/elasticsearch.js';
import { Relay } from '../../../support/relay.js';

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
      // No answer cache: every read below goes to Elasticsearch.
      env: { ELASTICSEARCH_URL: `${frozen.url},${alive.url}`, BREAKER_FAILURES: '1000', BODY_CACHE_BYTES: '0' },
    });
  });

  afterAll(async () => {
    await api.close();
    await Promise.all([frozen.close(), alive.close()]);
  });

  it('answers every read; after its first failures the frozen node is left out of the requests that follow', async () => {
    // Every attempt the API's client sends, by the node it picked (the transport's diagnostic 'request' event).
    let toFrozen = 0;
    api.client.diagnostic.on('request', (_error, event) => {
      if (event?.meta.connection?.url.port === String(frozen.port)) toFrozen += 1;
    });
    const statuses: number[] = [];
    const round = async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          api.call('POST', '/geocode/forward', { body: { ...forwardBody, number: String(statuses.length + 1) } }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    };
    // The first round: round robin sends some of it to the frozen node (unless the API's start-up reads already
    // met it), whose attempts are cut and go elsewhere.
    await round();
    const firstFailures = toFrozen;
    expect(frozen.accepted).toBeGreaterThan(0);
    // 30 more rounds (several Elasticsearch requests each, a round's reads batched): round robin over the two nodes
    // would send every other request to the frozen one.
    for (let i = 0; i < 30; i++) await round();
    // Left out, it is sent nothing more: the pool's resurrection pings (not requests of the transport, not counted)
    // time out on it, so it stays out. One attempt of slack.
    expect(toFrozen - firstFailures).toBeLessThanOrEqual(1);
    expect(statuses).toHaveLength(124);
    expect(statuses.every((status) => status === 200)).toBe(true);
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
