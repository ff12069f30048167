/**
 * GET /search as a search box against the sample (Delft and a Brussels slice) in a real Elasticsearch: places and
 * addresses from one request, best first, each in its documented shape; the filters.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createElasticsearchClient } from '../../../../../core/elasticsearch/client.js';
import { type Lane, SearchBatcher, type Searcher } from '../../../../../src/elasticsearch/searchBatcher.js';
import { createServiceLogger } from '../../../../../src/logger.js';
import { buildSearchServices } from '../../../../../src/wiring/services.js';
import { SearchResponse } from '../../../../../src/schemas/responses.js';
import { searchBoxRecords } from '../../../../../src/features/search/searchRecords.js';
import { startTestApi, type TestApi } from '../../../../support/api.js';
import { testElasticsearchUrl } from '../../../../support/elasticsearch.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function search(params: Record<string, string>) {
  const res = await api.call('GET', `/search?${new URLSearchParams(params)}`);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return SearchResponse.parse(res.body);
}

/** The search box wired as the app wires it, with each search's index and lane noted on its way to the batcher. */
async function searchBoxNotingSearches() {
  const client = createElasticsearchClient({ url: testElasticsearchUrl(), requestTimeoutMs: 30_000 });
  const batcher = new SearchBatcher(client, 16);
  const searches: string[] = [];
  const searcher: Searcher = {
    search(index, body, lane: Lane = 'exact') {
      searches.push(`${index.endsWith('places') ? 'places' : 'addresses'} ${lane}`);
      return batcher.search(index, body, lane);
    },
  };
  const logger = createServiceLogger('silent');
  const box = buildSearchServices({ client, indexPrefix: inject('samplePrefix'), searcher, logger }).searchBox;
  const search = async (q: string) => {
    searches.length = 0;
    // The results as GET /search records them (the search box answers domain results; the record is its format).
    return { results: searchBoxRecords(await box.search({ q, size: 10 })), searches: [...searches] };
  };
  return { search, close: () => client.close() };
}

describe('GET /search: places', () => {
  it.each([
    ['Delft', { type: 'city', name: 'Delft', label: 'Delft, Zuid-Holland' }],
    ['delft', { type: 'city', name: 'Delft' }],
    ['Mekelweg Delft', { type: 'street', streetname: 'Mekelweg', city: 'Delft', label: 'Mekelweg, Delft' }],
    ['Mekelweg, Delft', { type: 'street', streetname: 'Mekelweg' }],
    ['2628CD', { type: 'postcode', postcode: '2628CD', city: 'Delft' }],
    ['2628 cd', { type: 'postcode', postcode: '2628CD' }],
    ['Zuid-Holland', { type: 'province', name: 'Zuid-Holland' }],
    ['Wippolder', { type: 'suburb', name: 'Wippolder' }],
    ['Elsene', { type: 'city' }],
    ['1050', { type: 'postcode', postcode: '1050' }],
    ['Delfd', { type: 'city', name: 'Delft', match: 'typo' }],
    // A Brussels street by its French name and its commune's French name.
    ['Rue Élise, Ixelles', { type: 'street', city: 'Elsene', names: { nl: 'Elizastraat', fr: 'Rue Élise' } }],
    ['rue neuve bruxelles', { type: 'street', city: 'Brussel', names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' } }],
  ])('%j -> %j first', async (q, expected) => {
    const [first] = await search({ q });
    expect(first).toMatchObject(expected);
  });

  it('gives places a bbox around their point and areas their hierarchy id', async () => {
    const [city] = await search({ q: 'Delft' });
    if (city?.type !== 'city') throw new Error('not a city');
    const [minLon, minLat, maxLon, maxLat] = city.bbox;
    expect(city.longitude).toBeGreaterThanOrEqual(minLon);
    expect(city.longitude).toBeLessThanOrEqual(maxLon);
    expect(city.latitude).toBeGreaterThanOrEqual(minLat);
    expect(city.latitude).toBeLessThanOrEqual(maxLat);
    expect(city.parents.province).toBe('Zuid-Holland');
    const geojson = await api.call('GET', `/cities/${encodeURIComponent(city.id)}/geojson`);
    expect(geojson.status).toBe(200);
  });

  it('puts an address with a house number before the street of that name', async () => {
    const results = await search({ q: 'Mekelweg 8 Delft' });
    expect(results[0]).toMatchObject({
      type: 'address',
      streetname: 'Mekelweg',
      number: '8',
      label: 'Mekelweg 8, 2628CD Delft',
    });
    expect(results.some((r) => r.type === 'street')).toBe(true);
  });

  it('ranks the provinces named Limburg before the Walloon municipality Limbourg, whose Dutch exonym it is', async () => {
    const results = await search({ q: 'Limburg', size: '3' });
    expect(results.slice(0, 2).map((r) => r.type)).toEqual(['province', 'province']);
    // Named as typed (the Dutch name), its own name among its names.
    expect(results[2]).toMatchObject({ type: 'municipality', name: 'Limburg', names: { fr: 'Limbourg' } });
    // The exonym still finds it, alone, and `lang=fr` shows its own name.
    const [limbourg] = await search({ q: 'Limburg', layers: 'municipality', lang: 'fr' });
    expect(limbourg).toMatchObject({ name: 'Limbourg' });
  });

  it('carries the names of a Brussels place in both languages', async () => {
    const [elsene] = await search({ q: 'Elsene', layers: 'municipality' });
    expect(elsene).toBeDefined();
    if (elsene && 'names' in elsene && elsene.names) expect(Object.keys(elsene.names).length).toBeGreaterThan(1);
  });
});

describe("the places' typo round", () => {
  it('is not sent once an address is read with confidence: its street is asked for instead, and follows it', async () => {
    const box = await searchBoxNotingSearches();
    try {
      const { results, searches } = await box.search('Mekelweg 8, 2628 CD Delft');
      expect(results[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', confidence: 1 });
      expect(results.find((r) => r.type !== 'address')).toMatchObject({ type: 'street', label: 'Mekelweg, Delft' });
      expect(searches.filter((s) => s.startsWith('places'))).toEqual(['places exact']);
    } finally {
      await box.close();
    }
  });

  it('is sent when neither an address nor a place name matched, and finds the place', async () => {
    const box = await searchBoxNotingSearches();
    try {
      const typo = await box.search('Delfd');
      expect(typo.results[0]).toMatchObject({ type: 'city', name: 'Delft', match: 'typo' });
      expect(typo.searches).toContain('places fuzzy');
      // Only a weak address (a look-alike street): a place may still be what was meant.
      const weak = await box.search('Mekelwge 8 Delfd');
      expect(weak.results.find((r) => r.type === 'address')?.confidence ?? 0).toBeLessThan(0.8);
      expect(weak.searches).toContain('places fuzzy');
      // A number the right street lacks (issue 49): the street itself, one exact search, then the nearest number.
      const missing = await box.search('Mekelweg 9999 Delft');
      expect(missing.results[0]).toMatchObject({ type: 'street', streetname: 'Mekelweg', unmatched: ['number'] });
      expect(missing.results[1]).toMatchObject({ type: 'address', match: { number: 'nearest' } });
      expect(missing.searches).not.toContain('places fuzzy');
    } finally {
      await box.close();
    }
  });
});

describe('GET /search: filters', () => {
  it('keeps to the asked layers', async () => {
    const streets = await search({ q: 'Delft', layers: 'street' });
    expect(streets.length).toBeGreaterThan(0);
    expect(streets.every((r) => r.type === 'street')).toBe(true);
    const mixed = await search({ q: 'Mekelweg 8 Delft', layers: 'street,city' });
    expect(mixed.every((r) => r.type === 'street' || r.type === 'city')).toBe(true);
    expect((await search({ q: 'Mekelweg 8 Delft', layers: 'address' })).every((r) => r.type === 'address')).toBe(true);
  });

  it('keeps to the country, the bbox and the area', async () => {
    expect(await search({ q: 'Delft', country: 'BE' })).toEqual([]);
    expect(await search({ q: 'Delft', bbox: '5,52,6,53' })).toEqual([]);
    expect((await search({ q: 'Mekelweg 8', bbox: '5,52,6,53' })).filter((r) => r.type === 'address')).toEqual([]);
    const [province] = await search({ q: 'Zuid-Holland', layers: 'province' });
    const inside = await search({ q: 'Mekelweg 8', within: province!.id });
    expect(inside[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg' });
    const [elsene] = await search({ q: 'Elsene', layers: 'municipality' });
    expect(await search({ q: 'Mekelweg 8', within: elsene!.id })).toEqual([]);
  });
});

describe('Belgian boxes as people write them', () => {
  it.each([
    ['Nieuwstraat 8 bus 3, 1000 Brussel', 'B003'],
    ['Nieuwstraat 8 bte 3 Brussel', 'B003'],
    ['Nieuwstraat 8/3 Brussel', 'B003'],
    ['Nieuwstraat 8 b3 Brussel', 'B003'],
    ['Elizastraat 13 bus 3 Elsene', '3'],
    ['Elizastraat 74 bus 303 Elsene', '303'],
    ['Elizastraat 5 bus RC Elsene', 'RC'],
    ['Elizastraat 17 bus SS, 1050 Elsene', 'SS'],
    ['Elizastraat 13 bte ARRM Elsene', 'ARRM'],
    ['Nieuwstraat 123 bus C, 1000 Brussel', 'C'],
  ])('%j -> the box the register wrote (%s)', async (q, box) => {
    const [first] = await search({ q });
    expect(first).toMatchObject({ type: 'address', confidence: expect.any(Number) });
    if (first?.type !== 'address') return;
    expect(first.suffix.replace(/^-/, '')).toBe(box);
    expect(first.match.number).toBe('exact');
  });

  it('reads the box in /geocode/forward', async () => {
    const res = await api.call('POST', '/geocode/forward', {
      body: { streetname: 'Nieuwstraat', number: '8 bus 3', postcode: '1000' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ number: '8', confidence: 1, match: { number: 'exact' } });
  });
});

describe('the free-text readings and the forward tiers', () => {
  it("sends no reading's fuzzy tier once another reading answers with confidence", async () => {
    const box = await searchBoxNotingSearches();
    try {
      // Two readings: the street "Delft Mekelweg" (nothing exactly) and the street Mekelweg in Delft (found).
      const { results, searches } = await box.search('Delft Mekelweg 8');
      expect(results[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', confidence: 1 });
      expect(searches.filter((s) => s.startsWith('addresses'))).toEqual(['addresses exact', 'addresses exact']);
    } finally {
      await box.close();
    }
  });

  it('sends the fuzzy tiers of the readings when none is confident, and finds a typo in the street', async () => {
    const box = await searchBoxNotingSearches();
    try {
      const { results, searches } = await box.search('Delft Mekelwge 8');
      expect(results[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8' });
      expect(results[0]?.type === 'address' && results[0].match?.street).toBe('fuzzy');
      expect(searches).toContain('addresses fuzzy');
    } finally {
      await box.close();
    }
  });
});
