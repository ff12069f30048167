/**
 * Concurrent searches share one `_msearch` round trip and each caller still gets exactly its own answer or its
 * own failure, against the real node and the real Delft sample.
 */
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AddressDoc } from '../../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { SearchBatcher, searchEach } from '../../../../src/elasticsearch/searchBatcher.js';
import { BackendUnavailableError } from '../../../../core/domain/errors.js';
import { toApiError } from '../../../../src/http/errors.js';
import { createElasticsearchClient } from '../../../../core/elasticsearch/client.js';
import { createTestClient } from '../../../support/elasticsearch.js';
import { countingRoundTrips, type RoundTrips } from '../../../support/roundTrips.js';

let client: Client;
let counted: Client;
let roundTrips: RoundTrips;
let resetRoundTrips: () => void;
let addresses: string;
let sampleIds: string[];

const byId = (id: string) => ({ query: { term: { id } }, size: 1 });

beforeAll(async () => {
  client = createTestClient();
  ({ client: counted, roundTrips, reset: resetRoundTrips } = countingRoundTrips(client));
  addresses = aliasName(inject('samplePrefix'), 'addresses');
  const res = await client.search<AddressDoc>({ index: addresses, size: 40, sort: [{ id: 'asc' }] });
  sampleIds = res.hits.hits.map((h) => h._source!.id);
});

afterAll(async () => {
  await client.close();
});

beforeEach(() => resetRoundTrips());

describe('SearchBatcher', () => {
  it('sends a lone search as a plain _search', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const res = await batcher.search<AddressDoc>(addresses, byId(sampleIds[0]!));
    expect(res.hits.hits[0]?._source?.id).toBe(sampleIds[0]);
    expect(roundTrips).toEqual({ search: 1, msearch: 0 });
  });

  it('carries searches issued together in one _msearch, each caller getting its own hits', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const ids = sampleIds.slice(0, 10);
    const results = await Promise.all(ids.map((id) => batcher.search<AddressDoc>(addresses, byId(id))));
    expect(results.map((r) => r.hits.hits[0]?._source?.id)).toEqual(ids);
    expect(roundTrips).toEqual({ search: 0, msearch: 1 });
  });

  it('splits a burst larger than the batch limit', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const ids = sampleIds.slice(0, 40);
    const results = await searchEach<AddressDoc>(batcher, addresses, ids.map(byId));
    expect(results.map((r) => r.hits.hits[0]?._source?.id)).toEqual(ids);
    // 16 + 16 sent as soon as each batch is full, the last 8 at the end of the turn.
    expect(roundTrips).toEqual({ search: 0, msearch: 3 });
  });

  it('keeps fuzzy searches out of the batches of exact ones, so a fast lookup never waits for a slow one', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const fuzzy = { query: { fuzzy: { street_key: { value: 'mekelwegg', fuzziness: 2 } } }, size: 1 };
    const [exact, slow] = await Promise.all([
      searchEach<AddressDoc>(batcher, addresses, sampleIds.slice(0, 3).map(byId)),
      searchEach<AddressDoc>(batcher, addresses, [fuzzy, fuzzy], 'fuzzy'),
    ]);
    expect(exact.map((r) => r.hits.hits[0]?._source?.id)).toEqual(sampleIds.slice(0, 3));
    expect(slow[0]?.hits.hits[0]?._source?.streetname).toBe('Mekelweg');
    expect(roundTrips).toEqual({ search: 0, msearch: 2 });
  });

  it('never batches with a limit of 1', async () => {
    const batcher = new SearchBatcher(counted, 1);
    await searchEach(batcher, addresses, sampleIds.slice(0, 3).map(byId));
    expect(roundTrips).toEqual({ search: 3, msearch: 0 });
  });

  it('fails only the search whose index is missing (503), the others in its batch succeed', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const [ok, missing, sorted] = await Promise.allSettled([
      batcher.search<AddressDoc>(addresses, byId(sampleIds[0]!)),
      batcher.search('test-no-such-index', byId(sampleIds[0]!)),
      batcher.search<AddressDoc>(addresses, { ...byId(sampleIds[1]!), sort: [{ id: 'asc' }] }),
    ]);
    expect(roundTrips.msearch).toBe(1);
    expect(ok.status === 'fulfilled' && ok.value.hits.hits[0]?._source?.id).toBe(sampleIds[0]);
    expect(sorted.status === 'fulfilled' && sorted.value.hits.hits[0]?._source?.id).toBe(sampleIds[1]);
    expect(missing.status).toBe('rejected');
    const error = (missing as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(BackendUnavailableError);
    expect(toApiError(error).status).toBe(503);
  });

  it('answers a search Elasticsearch refuses as a server fault (500), not as a miss', async () => {
    const batcher = new SearchBatcher(counted, 16);
    const [ok, refused] = await Promise.allSettled([
      batcher.search<AddressDoc>(addresses, byId(sampleIds[0]!)),
      // Sorting on a field the mapping lacks is a malformed query: Elasticsearch answers 400 for this item only.
      batcher.search(addresses, {
        query: { term: { id: sampleIds[0]! } },
        sort: [{ no_such_field: { order: 'asc' } }],
      }),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect(toApiError((refused as PromiseRejectedResult).reason).status).toBe(500);
  });

  it('rejects every search of a batch with 503 when Elasticsearch is unreachable', async () => {
    const down = createElasticsearchClient({ url: 'http://127.0.0.1:9', requestTimeoutMs: 2000 });
    const batcher = new SearchBatcher(down, 16);
    const settled = await Promise.allSettled(sampleIds.slice(0, 3).map((id) => batcher.search(addresses, byId(id))));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const s of settled) expect(toApiError((s as PromiseRejectedResult).reason).status).toBe(503);
    await down.close();
  });
});
