/**
 * Caches that hold across deploys and reindexes: the ETag names the code's build version; `If-None-Match: *`
 * answers 304 only for a resource that exists; a country looked up before its data was indexed is found once a
 * generation holding it is live (no restart).
 */
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { swapAliases } from '../../../../indexer/generations/generations.js';
import { SearchBatcher } from '../../../../src/elasticsearch/searchBatcher.js';
import { buildVersion } from '../../../../src/http/buildVersion.js';
import { entityTag } from '../../../../src/http/conditional.js';
import { AreaRepository } from '../../../../src/features/hierarchy/areaRepository.js';
import { IndexGenerations } from '../../../../src/indexes/generations.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { createTestClient, deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../../support/elasticsearch.js';
import { createCompleteGeneration, createLiveGeneration } from '../../../support/generations.js';
import { generationIndexName } from '../../../../core/elasticsearch/indexNames.js';

describe('ETag and If-None-Match', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('derives the ETag from the build version as well as the data and the request', async () => {
    const res = await api.call('GET', '/countries');
    expect(res.status).toBe(200);
    const [generation] = await new IndexGenerations(api.client, inject('samplePrefix')).of(['areas']);
    // The tag is made of exactly these parts; that a changed source file changes buildVersion() is
    // test/unit/src/http/buildVersion.test.ts's to show.
    expect(res.headers.get('etag')).toBe(entityTag([buildVersion(), generation!, '/countries', 'application/json']));
  });

  it('tags an answer with the generation it was read from, even right after an alias swap', async () => {
    const client = createTestClient();
    const prefix = uniqueIndexPrefix('tag-generation');
    const country = (name: string) => ({
      id: 'country-xx',
      level: 'country',
      name,
      country_code: 'XX',
      country_code3: 'XXX',
    });
    const own = await (async () => {
      await createLiveGeneration(client, prefix, '20200101000000000', { areas: [country('Oldland')] });
      // Ready before the first request, so the swap below is one quick _aliases call.
      await createCompleteGeneration(client, prefix, '20200202000000000', { areas: [country('Newland')] });
      return startTestApi({ indexPrefix: prefix });
    })();
    try {
      // Looks the live generation up (cached for a second), then the aliases move on.
      expect((await own.call('GET', '/countries')).body[0].name).toBe('Oldland');
      await swapAliases(client, prefix, '20200202000000000');
      // Another request, so no kept body answers it: built now, while the lookup may still name the old generation.
      const res = await own.call('GET', '/countries?country_code=XX');
      const tagOf = (generation: string) =>
        entityTag([
          buildVersion(),
          generationIndexName(prefix, 'areas', generation),
          '/countries?country_code=XX',
          'application/json',
        ]);
      const names = { [tagOf('20200101000000000')]: 'Oldland', [tagOf('20200202000000000')]: 'Newland' };
      const tag = res.headers.get('etag')!;
      expect(Object.keys(names)).toContain(tag);
      expect(res.body[0].name).toBe(names[tag]);
    } finally {
      await own.close();
      await deleteIndexesWithPrefix(client, prefix);
      await client.close();
    }
  });

  it('answers If-None-Match: * with 304 only for a resource that exists', async () => {
    const [country] = (await api.call('GET', '/countries')).body as { id: string }[];
    const existing = await api.call('GET', `/countries/${country!.id}/geojson`, { headers: { 'if-none-match': '*' } });
    expect(existing.status).toBe(304);
    const missing = await api.call('GET', '/countries/no-such-country/geojson', { headers: { 'if-none-match': '*' } });
    expect(missing.status).toBe(404);
    const missingChildren = await api.call('GET', '/countries/no-such-country/provinces/geojson', {
      headers: { 'if-none-match': '*' },
    });
    expect(missingChildren.status).toBe(404);
  });
});

describe('country ids per index generation', () => {
  let client: Client;
  const prefix = uniqueIndexPrefix('country-generations');
  beforeAll(() => {
    client = createTestClient();
  });
  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
  });

  it('finds a country indexed after it was looked up and found missing', async () => {
    await createLiveGeneration(client, prefix, '20200101000000000');
    // No generation cache delay: the test sees the swap at once.
    const areas = new AreaRepository(
      client,
      new SearchBatcher(client, 16),
      prefix,
      new IndexGenerations(client, prefix, 0),
    );
    expect(await areas.countryIdOf('NL')).toBeUndefined();

    const country = {
      id: 'country-nl',
      level: 'country',
      name: 'Netherlands',
      country_code: 'NL',
      country_code3: 'NLD',
    };
    await createCompleteGeneration(client, prefix, '20200202000000000', { areas: [country] });
    await swapAliases(client, prefix, '20200202000000000');
    expect(await areas.countryIdOf('NL')).toBe('country-nl');
  });
});
