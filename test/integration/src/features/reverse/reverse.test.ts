/**
 * GET /reverse against the real sample (Delft) indexed by the real indexer: nearest addresses, the areas whose
 * polygons contain the point, and the query validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ErrorResponse, ForwardResult, ReverseResponse } from '../../../../../src/schemas/responses.js';
import { startTestApi, type TestApi, type TestResponse } from '../../../../support/api.js';

let api: TestApi;
let mekelweg8: z.infer<typeof ForwardResult>;

function expectReverse(res: TestResponse): z.infer<typeof ReverseResponse> {
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  const parsed = ReverseResponse.safeParse(res.body);
  if (!parsed.success) throw new Error(`response does not match schema: ${parsed.error.message}`);
  return parsed.data;
}

const reverse = (query: string) => api.call('GET', `/reverse?${query}`);
/** About `metres` north of a point. */
const north = (lat: number, metres: number) => lat + metres / 111_320;

beforeAll(async () => {
  api = await startTestApi();
  const res = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
  mekelweg8 = ForwardResult.parse(res.body);
});

afterAll(async () => {
  await api?.close();
});

describe('GET /reverse', () => {
  it('answers the nearest address and every area containing the point, down to the building', async () => {
    const lat = north(mekelweg8.latitude, 3);
    const body = expectReverse(await reverse(`lat=${lat}&lon=${mekelweg8.longitude}`));
    expect(body.addresses).toHaveLength(1);
    const [first] = body.addresses;
    expect(first).toMatchObject({ id: mekelweg8.id, streetname: 'Mekelweg', number: '8', city: 'Delft' });
    expect(first!.distance_m).toBeGreaterThan(1);
    expect(first!.distance_m).toBeLessThan(5);
    const { areas } = body;
    expect(areas.country).toMatchObject({ name: 'Netherlands', local_identifier: 'NL' });
    expect(areas.province).toMatchObject({ name: 'Zuid-Holland' });
    expect(areas.municipality).toMatchObject({ name: 'Delft', local_identifier: 'GM0503' });
    expect(areas.city).toMatchObject({ name: 'Delft' });
    expect(areas.suburb?.id).toBe(mekelweg8.suburb_id);
    // A building has no name: its local identifier (the BAG pand id) stands in for it.
    expect(areas.building?.id).toBe(mekelweg8.building_id);
    expect(areas.building?.name).toBe(areas.building?.local_identifier);
    expect(Object.keys(body.areas)).toEqual(['country', 'province', 'municipality', 'city', 'suburb', 'building']);
  });

  it('keeps size as the cap and returns addresses nearest first within the radius', async () => {
    const at = `lat=${mekelweg8.latitude}&lon=${mekelweg8.longitude}`;
    const many = expectReverse(await reverse(`${at}&size=50&radius=150`)).addresses;
    expect(many.length).toBeGreaterThan(1);
    expect(many.length).toBeLessThanOrEqual(50);
    expect(many[0]!.id).toBe(mekelweg8.id);
    expect(many[0]!.distance_m).toBe(0);
    for (const [i, a] of many.entries()) {
      expect(a.distance_m).toBeLessThanOrEqual(150);
      if (i > 0) expect(a.distance_m).toBeGreaterThanOrEqual(many[i - 1]!.distance_m);
    }
    const three = expectReverse(await reverse(`${at}&size=3&radius=150`)).addresses;
    expect(three.map((a) => a.id)).toEqual(many.slice(0, 3).map((a) => a.id));
    const near = expectReverse(await reverse(`${at}&size=50&radius=20`)).addresses;
    expect(near.length).toBeLessThan(many.length);
    expect(near.every((a) => a.distance_m <= 20)).toBe(true);
  });

  it('returns addresses sharing one point in the lookup order, up to size', async () => {
    // A student block: hundreds of flats whose address points lie within centimetres of each other.
    const res = await api.call('POST', '/geocode/forward', { body: { streetname: 'Van Embdenstraat', number: '768' } });
    const block = ForwardResult.parse(res.body);
    const at = `lat=${block.latitude}&lon=${block.longitude}`;
    const all = expectReverse(await reverse(`${at}&size=50&radius=1`)).addresses;
    const atPoint = all.filter((a) => a.distance_m === 0);
    expect(atPoint.length).toBeGreaterThan(2);
    // Stable order within a tie: city, postcode, number, suffix.
    const key = (a: (typeof all)[number]) => [a.city, a.postcode, Number(a.number), a.suffix] as const;
    for (let i = 1; i < atPoint.length; i++) {
      const [c0, p0, n0, s0] = key(atPoint[i - 1]!);
      const [c1, p1, n1, s1] = key(atPoint[i]!);
      const ordered = c0 < c1 || (c0 === c1 && (p0 < p1 || (p0 === p1 && (n0 < n1 || (n0 === n1 && s0 <= s1)))));
      expect(ordered, JSON.stringify([atPoint[i - 1], atPoint[i]])).toBe(true);
    }
    const three = expectReverse(await reverse(`${at}&size=3&radius=1`)).addresses;
    expect(three.map((a) => a.id)).toEqual(atPoint.slice(0, 3).map((a) => a.id));
  });

  it('fills the areas of a point without addresses nearby (open ground in Delft)', async () => {
    const body = expectReverse(await reverse('lat=52.008&lon=4.386'));
    expect(body.addresses).toEqual([]);
    expect(body.areas.country?.name).toBe('Netherlands');
    expect(body.areas.province?.name).toBe('Zuid-Holland');
    expect(body.areas.municipality?.name).toBe('Delft');
    expect(body.areas.building).toBeNull();
  });

  it('answers no addresses and no areas in the North Sea', async () => {
    const body = expectReverse(await reverse('lat=53.2&lon=3.5&radius=5000&size=5'));
    expect(body).toEqual({
      addresses: [],
      areas: { country: null, province: null, municipality: null, city: null, suburb: null, building: null },
    });
  });

  it('finds the country of a point far from the Netherlands from the cached boundaries', async () => {
    const body = expectReverse(await reverse('lat=48.8566&lon=2.3522'));
    expect(body.areas.country?.local_identifier).toBe('FR');
    expect(body.areas.municipality).toBeNull();
  });

  it('refuses missing, malformed and out-of-range parameters with 400', async () => {
    for (const query of [
      'lon=4.37',
      'lat=91&lon=4.37',
      'lat=52&lon=abc',
      'lat=52&lon=4.37&size=0',
      'lat=52&lon=4.37&size=51',
      'lat=52&lon=4.37&radius=5001',
      'lat=52&lon=4.37&nmae=x',
      'lat=52&lat=53&lon=4.37',
    ]) {
      const res = await reverse(query);
      expect(res.status, query).toBe(400);
      expect(ErrorResponse.parse(res.body).error.code).toBe('invalid_request');
    }
    const missing = ErrorResponse.parse((await reverse('lon=4.37')).body);
    expect(missing.error.details).toEqual([{ path: 'query.lat', message: 'Required (expected string)' }]);
    const unknown = ErrorResponse.parse((await reverse('lat=52&lon=4.37&nmae=x')).body);
    expect(unknown.error.details).toEqual([{ path: 'query.nmae', message: 'unknown parameter' }]);
  });

  it('answers 401 without a key', async () => {
    const res = await api.call('GET', '/reverse?lat=52&lon=4.37', { headers: { 'x-api-key': '' } });
    expect(res.status).toBe(401);
    expect(ErrorResponse.parse(res.body).error.code).toBe('unauthorized');
  });
});
