/**
 * The places index built by the real indexer from the Delft sample, and the place query (src/features/search/placeQueries.ts)
 * run through the repository phase 2 wires to GET /search: types and counts reconcile with the other indexes, and
 * what people type into a search box finds the place they mean first.
 */
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createElasticsearchClient } from '../../../../../core/elasticsearch/client.js';
import { aliasName } from '../../../../../core/elasticsearch/indexNames.js';
import { SearchBatcher } from '../../../../../src/elasticsearch/searchBatcher.js';
import type { PlaceResult } from '../../../../../src/features/places/placeRecords.js';
import { PlaceRepository } from '../../../../../src/features/places/placeRepository.js';
import type { PlaceQuery } from '../../../../../src/features/places/placeQueries.js';
import { testElasticsearchUrl } from '../../../../support/elasticsearch.js';

let client: Client;
let places: PlaceRepository;
const prefix = inject('samplePrefix');

beforeAll(() => {
  client = createElasticsearchClient({ url: testElasticsearchUrl(), requestTimeoutMs: 30_000 });
  places = new PlaceRepository(new SearchBatcher(client, 16), prefix);
});
afterAll(async () => {
  await client?.close();
});

const search = (text: string, extra: Partial<PlaceQuery> = {}) => places.search({ text, size: 5, ...extra });
const first = async (text: string, extra: Partial<PlaceQuery> = {}): Promise<PlaceResult> => {
  const out = await search(text, extra);
  expect(out.length, `no place for "${text}"`).toBeGreaterThan(0);
  return out[0] as PlaceResult;
};

async function countsBy(index: string, field: string): Promise<Record<string, number>> {
  const res = await client.search({ index, size: 0, aggs: { by: { terms: { field, size: 100 } } } });
  const buckets = (res.aggregations?.by as { buckets: { key: string; doc_count: number }[] }).buckets;
  return Object.fromEntries(buckets.map((b) => [b.key, b.doc_count]));
}

describe('the places index', () => {
  it('holds every area, street and postcode of the sample, once', async () => {
    const byType = await countsBy(aliasName(prefix, 'places'), 'type');
    const areas = await countsBy(aliasName(prefix, 'areas'), 'level');
    for (const level of ['country', 'province', 'municipality', 'city', 'suburb']) {
      expect(byType[level], level).toBe(areas[level]);
    }
    expect(byType.street).toBe((await client.count({ index: aliasName(prefix, 'streets') })).count);
    const postcodes = await client.search({
      index: aliasName(prefix, 'addresses'),
      size: 0,
      aggs: { keys: { terms: { field: 'postcode_key', size: 10_000 } } },
    });
    const keys = (postcodes.aggregations?.keys as { buckets: { key: string }[] }).buckets.map((b) => b.key);
    const dutch = keys.filter((k) => /^\d{4}[a-z]{2}$/.test(k));
    const areasOf4 = new Set([...dutch, ...keys.filter((k) => /^\d{4}$/.test(k))].map((k) => k.slice(0, 4)));
    expect(byType.postcode).toBe(dutch.length + areasOf4.size);
    expect(byType.city).toBeGreaterThan(0);
  });
});

describe('the place query', () => {
  it('answers a city name with the city first, then the municipality of the same name', async () => {
    const out = await search('Delft');
    expect(out[0]).toMatchObject({ type: 'city', name: 'Delft', label: 'Delft, Zuid-Holland', match: 'exact' });
    expect(out[0]?.parents).toMatchObject({ province: 'Zuid-Holland', country: 'Netherlands' });
    expect(out[0]?.address_count).toBeGreaterThan(8000);
    expect(out[1]).toMatchObject({ type: 'municipality', name: 'Delft', local_identifier: 'GM0503' });
    const [minLon, minLat, maxLon, maxLat] = out[0]?.bbox ?? [];
    expect(out[0]?.longitude).toBeGreaterThan(minLon as number);
    expect(out[0]?.longitude).toBeLessThan(maxLon as number);
    expect(out[0]?.latitude).toBeGreaterThan(minLat as number);
    expect(out[0]?.latitude).toBeLessThan(maxLat as number);
  });

  it('gives areas the hierarchy id the boundary endpoints take', async () => {
    const city = await first('Delft', { layers: ['city'] });
    const res = await client.get<{ level: string; name: string }>({ index: aliasName(prefix, 'areas'), id: city.id });
    expect(res._source).toMatchObject({ level: 'city', name: 'Delft' });
  });

  it('reads a street and a city without a number, in any order, with or without a comma', async () => {
    for (const text of ['Mekelweg Delft', 'mekelweg, delft', 'Delft, Mekelweg', 'MEKELWEG']) {
      expect(await first(text), text).toMatchObject({
        type: 'street',
        streetname: 'Mekelweg',
        city: 'Delft',
        label: 'Mekelweg, Delft',
        match: 'exact',
      });
    }
    const street = await first('Mekelweg Delft');
    expect(street.postcode).toMatch(/^2628[A-Z]{2}$/);
    expect(street.bbox[0]).toBeLessThanOrEqual(street.longitude);
    expect(street.bbox[2]).toBeGreaterThanOrEqual(street.longitude);
  });

  it('finds Dutch postcodes and 4-digit postcode areas however they are spaced', async () => {
    for (const text of ['2628CD', '2628 cd', '2628cd Delft']) {
      expect(await first(text), text).toMatchObject({ type: 'postcode', postcode: '2628CD', city: 'Delft' });
    }
    const area = await search('2628');
    expect(area[0]).toMatchObject({ type: 'postcode', name: '2628', label: '2628 Delft', match: 'exact' });
    expect(area[1]?.match).toBe('prefix');
    expect(area[0]?.address_count).toBeGreaterThan(area[1]?.address_count ?? 0);
  });

  it('finds provinces, suburbs and countries', async () => {
    expect(await first('Zuid-Holland')).toMatchObject({ type: 'province', label: 'Zuid-Holland, Netherlands' });
    expect(await first('zuid holland')).toMatchObject({ type: 'province', name: 'Zuid-Holland' });
    expect(await first('Wippolder')).toMatchObject({ type: 'suburb', label: 'Wippolder, Delft' });
    expect(await first('Netherlands')).toMatchObject({ type: 'country', local_identifier: 'NL', country: 'NL' });
    expect(await first("'s-Gravenhage")).toMatchObject({ type: 'municipality', local_identifier: 'GM0518' });
  });

  it('reads a typo in a place name, after exact and prefix names found nothing', async () => {
    expect(await first('Delfd')).toMatchObject({ type: 'city', name: 'Delft', match: 'typo' });
    expect(await first('Zuid-Holand')).toMatchObject({ type: 'province', name: 'Zuid-Holland', match: 'typo' });
    expect(await first('Mekelwek Delft')).toMatchObject({ type: 'street', streetname: 'Mekelweg', match: 'typo' });
    expect((await first('Delfd')).confidence).toBeLessThan((await first('Delft')).confidence);
  });

  it('ranks a prefix after an exact name', async () => {
    const out = await search('Delf');
    expect(out.every((r) => r.match === 'prefix')).toBe(true);
    expect(out[0]).toMatchObject({ type: 'city', name: 'Delft' });
  });

  it('filters by layers, country, bbox and the area it lies within', async () => {
    expect((await search('Delft', { layers: ['street'] })).every((r) => r.type === 'street')).toBe(true);
    expect(await search('Delft', { country: 'BE' })).toEqual([]);
    expect((await first('Delft', { country: 'NL' })).type).toBe('city');
    expect(await search('Delft', { bbox: [5, 52, 6, 53] })).toEqual([]);
    expect((await first('Mekelweg', { bbox: [4.3, 51.9, 4.5, 52.1] })).streetname).toBe('Mekelweg');
    const zh = await first('Zuid-Holland');
    expect((await first('Mekelweg', { within: zh.id })).streetname).toBe('Mekelweg');
    const gm = await first("'s-Gravenhage");
    expect(await search('Mekelweg', { within: gm.id })).toEqual([]);
    expect(await first("'s-Gravenhage", { within: gm.id })).toMatchObject({ id: gm.id });
  });

  it('prefers the place near the focus among equal matches', async () => {
    const postcodes = await search('2628', { layers: ['postcode'], size: 20 });
    const far = postcodes.filter((r) => r.match === 'prefix').at(-1) as PlaceResult;
    const focused = await search('2628', {
      layers: ['postcode'],
      size: 3,
      focus: { lat: far.latitude, lon: far.longitude },
    });
    expect(focused[0]?.name).toBe('2628');
    expect(focused.map((r) => r.name)).toContain(far.name);
  });

  it('answers nothing for punctuation or a name that is nowhere', async () => {
    expect(await search("'")).toEqual([]);
    expect(await search('Xyzzyplaats')).toEqual([]);
  });
});
