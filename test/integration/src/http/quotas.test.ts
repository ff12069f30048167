/**
 * Quotas by work: a request costs one token per search it asked Elasticsearch for (a batch item, a free-text
 * reading, an autocomplete round), and a batch stops searching once one item has failed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../../../src/schemas/responses.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { testElasticsearchUrl } from '../../../support/elasticsearch.js';
import { Relay } from '../../../support/relay.js';

const item = { streetname: 'Mekelweg', number: '8' };

describe('quotas by work', () => {
  let api: TestApi;
  let clock = 0;
  beforeAll(async () => {
    api = await startTestApi({ env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '10' }, now: () => clock });
  });
  afterAll(() => api.close());

  it('charges a batch per item: a batch larger than the bucket is served, then the key waits out the debt', async () => {
    clock = 0;
    // 20 distinct items (a focus each: the same exact search, one token each; repeats would be searched once).
    const items = Array.from({ length: 20 }, (_, i) => ({ ...item, lat: 52 + i / 1000, lon: 4.37 }));
    const batch = await api.call('POST', '/geocode/batch', { body: { items } });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('ratelimit-remaining')).toBe('0');
    const next = await api.call('POST', '/geocode/forward', { body: item });
    expect(next.status).toBe(429);
    expect(ErrorResponse.parse(next.body).error.code).toBe('rate_limited');
    // 20 searches from a bucket of 10: 10 in debt, and one more token needed to start.
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThanOrEqual(10);
  });

  it('charges a repeated batch item nothing: it is searched once', async () => {
    clock += 1_000_000;
    const batch = await api.call('POST', '/geocode/batch', { body: { items: Array.from({ length: 5 }, () => item) } });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('ratelimit-remaining')).toBe('9');
  });

  it('charges a single search one token, and free text one per reading', async () => {
    clock += 1_000_000;
    const one = await api.call('POST', '/geocode/forward', { body: item });
    expect(one.status).toBe(200);
    expect(one.headers.get('ratelimit-remaining')).toBe('9');
    clock += 1_000_000;
    // "Delft Mekelweg 8" has two readings (a street "Delft Mekelweg"; Mekelweg in Delft): at least two searches.
    const text = await api.call('GET', '/search?q=Delft%20Mekelweg%208');
    expect(text.status).toBe(200);
    expect(Number(text.headers.get('ratelimit-remaining'))).toBeLessThan(9);
  });
});

/** From /metrics: the searches sent to Elasticsearch (an `_msearch` of 64 counts 64), and the requests in flight. */
async function searchCounters(api: TestApi): Promise<{ sent: number; inFlight: number }> {
  const { text } = await api.call('GET', '/metrics');
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  return { sent: read('geocoder_elasticsearch_batch_size_sum'), inFlight: read('geocoder_elasticsearch_in_flight') };
}

/**
 * The searches sent once none are being sent: the count unchanged for `quietMs` with nothing in flight. Searches
 * that must not happen can only be counted after they have had their chance.
 */
async function searchesOnceQuiet(api: TestApi, quietMs = 500): Promise<number> {
  let last = await searchCounters(api);
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await searchCounters(api);
    if (now.sent !== last.sent || now.inFlight > 0) quietSince = Date.now();
    last = now;
  }
  return last.sent;
}

describe('a failed batch', () => {
  let relay: Relay;
  let api: TestApi;
  beforeAll(async () => {
    relay = new Relay(new URL(testElasticsearchUrl()));
    await relay.open();
    // The breaker never opens (it would fail the other searches itself, hiding the rule).
    api = await startTestApi({ elasticsearchUrl: relay.url, env: { BREAKER_FAILURES: '100000' } });
  });
  afterAll(async () => {
    await api.close();
    await relay.close();
  });

  it('stops searching its other items once one has failed it', async () => {
    // The live generation and the known city names are read here, and kept: below, only the batch's searches run.
    expect((await api.call('POST', '/geocode/forward', { body: item })).status).toBe(200);
    const before = (await searchCounters(api)).sent;
    // Elasticsearch refuses one `_msearch` (its search queue full: 429); it answers every other request.
    relay.refuse = { requests: /^POST \/[^ ]*_msearch/, count: 1, status: 429 };
    // Distinct items (repeats would be searched once whatever the rule), each found by its first search.
    const items = Array.from({ length: 1000 }, (_, i) => ({ ...item, lat: 52 + i / 10000, lon: 4.37 }));
    const batch = await api.call('POST', '/geocode/batch', { body: { items } });
    expect(batch.status).toBe(503);
    expect(ErrorResponse.parse(batch.body).error.code).toBe('backend_unavailable');
    expect(relay.refuse.count).toBe(0);
    // The first wave (128 items at once: two `_msearch`es of 64, one refused) and at most a round or two of the
    // answered half's workers before the refusal is known; without the rule they would go on to search all 1,000.
    const searched = (await searchesOnceQuiet(api)) - before;
    expect(searched).toBeGreaterThanOrEqual(128);
    expect(searched).toBeLessThan(400);
  });
});
