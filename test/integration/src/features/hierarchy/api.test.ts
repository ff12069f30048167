/**
 * Every endpoint of the contract (plus /countries and /cities) against a real Elasticsearch holding the sample
 * data indexed by the real indexer. Every response body is checked against its zod schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Address,
  AddressList,
  CityList,
  CountryList,
  ErrorResponse,
  FeatureCollection,
  ForwardResult,
  Health,
  LookupResponse,
  MunicipalityList,
  ProvinceList,
} from '../../../../../src/schemas/responses.js';
import { startTestApi, type TestApi, type TestResponse } from '../../../../support/api.js';

let api: TestApi;
const ids: Record<string, string> = {};

function expectShape<S extends z.ZodType>(schema: S, res: TestResponse, status = 200): z.infer<S> {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success)
    throw new Error(`response does not match schema: ${parsed.error.message}\n${res.text.slice(0, 500)}`);
  return parsed.data;
}

function expectError(res: TestResponse, status: number, code: string) {
  const body = expectShape(ErrorResponse, res, status);
  expect(body.error.code).toBe(code);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return body;
}

beforeAll(async () => {
  api = await startTestApi();
  // Walk the hierarchy the way a client would, to learn the ids the other tests use.
  const [nl] = expectShape(CountryList, await api.call('GET', '/countries?country_code=NL'));
  ids.nl = nl!.id;
  const provinces = expectShape(
    ProvinceList,
    await api.call('GET', `/countries/${ids.nl}/provinces?name=zuid-holland`),
  );
  ids.zuidHolland = provinces[0]!.id;
  const municipalities = expectShape(
    MunicipalityList,
    await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities?name=delft`),
  );
  ids.delftMunicipality = municipalities[0]!.id;
  const cities = expectShape(CityList, await api.call('GET', '/cities?name=delft'));
  ids.delft = cities.find((c) => c.name === 'Delft')!.id;
});

afterAll(async () => {
  await api?.close();
});

describe('GET /health', () => {
  it('is open without a key (the status alone) and reports version, cluster status and document counts with one', async () => {
    const open = await api.call('GET', '/health', { headers: { 'x-api-key': '' } });
    expect(expectShape(Health, open)).toEqual({ status: 'ok' });
    const body = expectShape(Health, await api.call('GET', '/health'));
    expect(body.status).toBe('ok');
    expect(body.elasticsearch?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.elasticsearch?.cluster_status).toMatch(/green|yellow/);
    expect(body.indexes?.addresses?.documents).toBeGreaterThan(8000);
  });
});

describe('authentication', () => {
  it('answers 401 without a key, and the same for a wrong key', async () => {
    const missing = await api.call('GET', `/countries/${ids.nl}/geojson`, { headers: { 'x-api-key': '' } });
    const wrong = await api.call('GET', `/countries/${ids.nl}/geojson`, { headers: { 'x-api-key': 'nope' } });
    expectError(missing, 401, 'unauthorized');
    expectError(wrong, 401, 'unauthorized');
    expect(wrong.body).toEqual(missing.body);
  });

  it('guards POST endpoints and unknown paths too', async () => {
    const res = await api.call('POST', '/lookup/street', {
      body: { streetname: 'Mekelweg', number: '8' },
      headers: { 'x-api-key': 'wrong' },
    });
    expectError(res, 401, 'unauthorized');
    expectError(await api.call('GET', '/nowhere', { headers: { 'x-api-key': '' } }), 401, 'unauthorized');
  });
});

describe('POST /lookup/street', () => {
  it('finds every address of a street and number, case-insensitively, with the canonical name', async () => {
    const res = await api.call('POST', '/lookup/street', { body: { streetname: 'mekelweg', number: '8' } });
    const hits = expectShape(LookupResponse, res);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(hit.streetname).toBe('Mekelweg');
      expect(hit.number).toBe('8');
      expect(hit.city).toBe('Delft');
      expect(hit.longitude).toBeCloseTo(4.37, 1);
      expect(hit.latitude).toBeCloseTo(51.99, 1);
    }
  });

  it('returns every suffix of a bare number, in a stable order, and narrows with a suffix', async () => {
    const all = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'Rotterdamseweg', number: '139' } }),
    );
    expect(all.length).toBeGreaterThan(1);
    const suffixes = all.map((h) => h.suffix);
    expect(suffixes).toContain('A-1');
    const again = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'ROTTERDAMSEWEG', number: 139 } }),
    );
    expect(again).toEqual(all);

    const one = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'Rotterdamseweg', number: '139A-1' } }),
    );
    expect(one.map((h) => h.suffix)).toEqual(['A-1']);
    const viaField = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', {
        body: { streetname: 'Rotterdamseweg', number: '139', suffix: 'a 1' },
      }),
    );
    expect(viaField).toEqual(one);
  });

  it('narrows by postcode and city', async () => {
    const hits = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', {
        body: { streetname: 'Mekelweg', number: '8', postcode: '2628 cd', city: 'delft' },
      }),
    );
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.postcode === '2628CD')).toBe(true);
    const none = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', {
        body: { streetname: 'Mekelweg', number: '8', postcode: '1000AA' },
      }),
    );
    expect(none).toEqual([]);
    // The city narrows too: Mekelweg 8 is in Delft, not in Elsene (a city of the sample).
    const elsewhere = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'Mekelweg', number: '8', city: 'Elsene' } }),
    );
    expect(elsewhere).toEqual([]);
  });

  it('answers 200 [] when nothing matches', async () => {
    const hits = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'Qwxzystraat', number: '1' } }),
    );
    expect(hits).toEqual([]);
  });

  it('tolerates a typo in the street name', async () => {
    const hits = expectShape(
      LookupResponse,
      await api.call('POST', '/lookup/street', { body: { streetname: 'Mekelwge', number: '8' } }),
    );
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.streetname))).toEqual(new Set(['Mekelweg']));
  });
});

describe('POST /geocode/forward', () => {
  it('returns the single best address with its building and suburb', async () => {
    const res = await api.call('POST', '/geocode/forward', {
      body: { streetname: 'minervaweg', number: '10a' },
    });
    const hit = expectShape(ForwardResult, res);
    expect(hit).toMatchObject({ streetname: 'Minervaweg', number: '10', suffix: 'A', city: 'Delft' });
    expect(hit.building_id).not.toBe('');
    expect(hit.suburb_id).not.toBe('');
    expect(hit.match).toEqual({ street: 'normalized', number: 'exact', postcode: 'none', city: 'none' });
    expect(hit.confidence).toBeGreaterThan(0.9);
  });

  it('falls back to a fuzzy street and says so', async () => {
    const hit = expectShape(
      ForwardResult,
      await api.call('POST', '/geocode/forward', { body: { streetname: 'Minervawge', number: '10a' } }),
    );
    expect(hit.streetname).toBe('Minervaweg');
    expect(hit.match.street).toBe('fuzzy');
    expect(hit.confidence).toBeLessThan(0.9);
  });

  it('answers 404 no_match when no street is close', async () => {
    expectError(
      await api.call('POST', '/geocode/forward', { body: { streetname: 'Qwxzystraat', number: '1' } }),
      404,
      'no_match',
    );
  });
});

describe('addresses and buildings', () => {
  let address: z.infer<typeof ForwardResult>;
  beforeAll(async () => {
    address = expectShape(
      ForwardResult,
      await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } }),
    );
  });

  it('GET /addresses/{id} returns the record; unknown ids are 404', async () => {
    const record = expectShape(Address, await api.call('GET', `/addresses/${address.id}`));
    expect(record).toMatchObject({
      id: address.id,
      streetname: 'Mekelweg',
      number: '8',
      building_id: address.building_id,
    });
    expectError(await api.call('GET', '/addresses/00000000-0000-0000-0000-000000000000'), 404, 'not_found');
  });

  it('GET /addresses/{id}/geojson returns a Point feature', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', `/addresses/${address.id}/geojson`));
    expect(fc.features).toHaveLength(1);
    expect(fc.features[0]!.geometry).toEqual({
      type: 'Point',
      coordinates: [address.longitude, address.latitude],
    });
    expect(fc.features[0]!.properties).toMatchObject({ streetname: 'Mekelweg' });
    expectError(await api.call('GET', '/addresses/unknown/geojson'), 404, 'not_found');
  });

  it('GET /buildings/{id}/addresses lists the addresses of the building; unknown building is 404', async () => {
    const list = expectShape(AddressList, await api.call('GET', `/buildings/${address.building_id}/addresses`));
    expect(list.map((a) => a.id)).toContain(address.id);
    expect(list.every((a) => a.building_id === address.building_id)).toBe(true);
    expectError(await api.call('GET', '/buildings/unknown/addresses'), 404, 'not_found');
  });
});

describe('countries', () => {
  it('GET /countries filters by name prefix and by alpha-2 or alpha-3 code in any case', async () => {
    const byName = expectShape(CountryList, await api.call('GET', '/countries?name=netherl'));
    expect(byName.map((c) => c.name)).toContain('Netherlands');
    const alpha3 = expectShape(CountryList, await api.call('GET', '/countries?country_code=nld'));
    expect(alpha3.map((c) => c.id)).toEqual([ids.nl]);
    expect(alpha3[0]).toMatchObject({ country_code: 'NL', country_code3: 'NLD' });
    const all = expectShape(CountryList, await api.call('GET', '/countries'));
    expect(all.length).toBeGreaterThan(200);
  });

  it('GET /countries/geojson returns boundaries, and centroids on request', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', '/countries/geojson?name=belg'));
    expect(fc.features.map((f) => f.properties.name)).toEqual(['Belgium']);
    expect(['Polygon', 'MultiPolygon']).toContain(fc.features[0]!.geometry.type);
    const points = expectShape(
      FeatureCollection,
      await api.call('GET', '/countries/geojson?country_code=NL&geometry=centroid'),
    );
    expect(points.features[0]!.geometry.type).toBe('Point');
    const none = expectShape(FeatureCollection, await api.call('GET', '/countries/geojson?name=atlantis'));
    expect(none.features).toEqual([]);
  });

  it('GET /countries/geojson without filters streams every country', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', '/countries/geojson'));
    expect(fc.features.length).toBeGreaterThan(200);
    expect(new Set(fc.features.map((f) => f.id)).size).toBe(fc.features.length);
  });

  it('GET /countries/{id}/geojson returns one boundary; unknown id is 404', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', `/countries/${ids.nl}/geojson`));
    expect(fc.features).toHaveLength(1);
    expect(fc.features[0]!.properties).toMatchObject({ name: 'Netherlands', country_code: 'NL' });
    expectError(await api.call('GET', '/countries/unknown/geojson'), 404, 'not_found');
  });

  it('GET /countries/{id}/provinces lists the 12 Dutch provinces; a name filter ignores case and accents', async () => {
    const all = expectShape(ProvinceList, await api.call('GET', `/countries/${ids.nl}/provinces`));
    expect(all).toHaveLength(12);
    expect(all.every((p) => p.country_id === ids.nl)).toBe(true);
    const fryslan = expectShape(ProvinceList, await api.call('GET', `/countries/${ids.nl}/provinces?name=FRYSLAN`));
    expect(fryslan.map((p) => p.name)).toEqual(['Fryslân']);
    expect(fryslan[0]!.local_identifier).toBe('PV21');
    expectError(await api.call('GET', '/countries/unknown/provinces'), 404, 'not_found');
  });

  it('a country without provinces answers 200 []', async () => {
    const [france] = expectShape(CountryList, await api.call('GET', '/countries?country_code=FR'));
    expect(expectShape(ProvinceList, await api.call('GET', `/countries/${france!.id}/provinces`))).toEqual([]);
  });

  it('GET /countries/{id}/provinces/geojson returns province boundaries', async () => {
    const fc = expectShape(
      FeatureCollection,
      await api.call('GET', `/countries/${ids.nl}/provinces/geojson?name=zuid`),
    );
    expect(fc.features.map((f) => f.properties.name)).toEqual(['Zuid-Holland']);
    expectError(await api.call('GET', '/countries/unknown/provinces/geojson'), 404, 'not_found');
  });
});

describe('provinces and municipalities', () => {
  it('GET /provinces/{id}/geojson', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', `/provinces/${ids.zuidHolland}/geojson`));
    expect(fc.features[0]!.properties).toMatchObject({ name: 'Zuid-Holland', local_identifier: 'PV28' });
    expectError(await api.call('GET', `/provinces/${ids.nl}/geojson`), 404, 'not_found');
  });

  it('GET /provinces/{id}/municipalities lists all 50 of Zuid-Holland and filters by word prefix', async () => {
    const all = expectShape(MunicipalityList, await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities`));
    expect(all).toHaveLength(50);
    const gravenhage = expectShape(
      MunicipalityList,
      await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities?name=gravenhage`),
    );
    expect(gravenhage.map((m) => m.name)).toEqual(["'s-Gravenhage"]);
    const delft = expectShape(
      MunicipalityList,
      await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities?name=Delft`),
    );
    expect(delft).toEqual([
      { id: ids.delftMunicipality, province_id: ids.zuidHolland, name: 'Delft', local_identifier: 'GM0503' },
    ]);
    expectError(await api.call('GET', '/provinces/unknown/municipalities'), 404, 'not_found');
  });

  it('GET /provinces/{id}/municipalities/geojson', async () => {
    const fc = expectShape(
      FeatureCollection,
      await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities/geojson?name=delft`),
    );
    expect(fc.features.map((f) => f.id)).toEqual([ids.delftMunicipality]);
    expectError(await api.call('GET', '/provinces/unknown/municipalities/geojson'), 404, 'not_found');
  });

  it('GET /municipalities/{id}/geojson (beyond the contract: an area /search answers, drawn by its id)', async () => {
    const fc = expectShape(
      FeatureCollection,
      await api.call('GET', `/municipalities/${ids.delftMunicipality}/geojson`),
    );
    expect(fc.features.map((f) => f.id)).toEqual([ids.delftMunicipality]);
    expect(fc.features[0]!.properties).toMatchObject({
      level: 'municipality',
      name: 'Delft',
      local_identifier: 'GM0503',
    });
    // A city's id is not a municipality's.
    expectError(await api.call('GET', `/municipalities/${ids.delft}/geojson`), 404, 'not_found');
  });
});

describe('cities, suburbs and buildings', () => {
  it('GET /cities filters by name', async () => {
    const cities = expectShape(CityList, await api.call('GET', '/cities?name=delfg'));
    expect(cities.map((c) => c.name)).toEqual(['Delfgauw']);
  });

  it('GET /cities/{id}/geojson', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', `/cities/${ids.delft}/geojson`));
    expect(fc.features[0]!.properties).toMatchObject({
      name: 'Delft',
      municipality_id: ids.delftMunicipality,
    });
    expectError(await api.call('GET', '/cities/unknown/geojson'), 404, 'not_found');
  });

  it('GET /cities/{id}/suburbs/geojson lists the wijken and filters by name', async () => {
    const fc = expectShape(FeatureCollection, await api.call('GET', `/cities/${ids.delft}/suburbs/geojson`));
    expect(fc.features.map((f) => f.properties.name)).toEqual(
      expect.arrayContaining(['Binnenstad', 'Voorhof', 'Wippolder']),
    );
    const voorhof = expectShape(
      FeatureCollection,
      await api.call('GET', `/cities/${ids.delft}/suburbs/geojson?name=voor`),
    );
    expect(voorhof.features.map((f) => f.properties.name)).toEqual(['Voorhof']);
    expectError(await api.call('GET', '/cities/unknown/suburbs/geojson'), 404, 'not_found');
  });

  it('GET /suburbs/{id}/geojson (beyond the contract: an area /search answers, drawn by its id)', async () => {
    const listed = expectShape(
      FeatureCollection,
      await api.call('GET', `/cities/${ids.delft}/suburbs/geojson?name=wippolder&geometry=centroid`),
    );
    const wippolder = listed.features[0]!.id;
    const fc = expectShape(FeatureCollection, await api.call('GET', `/suburbs/${wippolder}/geojson`));
    expect(fc.features.map((f) => f.id)).toEqual([wippolder]);
    expect(fc.features[0]!.geometry.type).toMatch(/Polygon$/);
    expect(fc.features[0]!.properties).toMatchObject({ level: 'suburb', name: 'Wippolder', city_id: ids.delft });
    expectError(await api.call('GET', '/suburbs/unknown/geojson'), 404, 'not_found');
  });

  it('GET /suburbs/{id}/buildings/geojson streams every footprint of a suburb', async () => {
    const suburbs = expectShape(
      FeatureCollection,
      await api.call('GET', `/cities/${ids.delft}/suburbs/geojson?name=wippolder`),
    );
    const wippolder = suburbs.features[0]!.id;
    const fc = expectShape(FeatureCollection, await api.call('GET', `/suburbs/${wippolder}/buildings/geojson`));
    // Wippolder holds more buildings than one 500-hit page: the list must be complete.
    expect(fc.features.length).toBeGreaterThan(500);
    expect(new Set(fc.features.map((f) => f.id)).size).toBe(fc.features.length);
    expect(fc.features.every((f) => f.properties.suburb_id === wippolder)).toBe(true);
    expectError(await api.call('GET', '/suburbs/unknown/buildings/geojson'), 404, 'not_found');
  });
});

describe('request errors', () => {
  it('400 on invalid JSON', async () => {
    expectError(await api.call('POST', '/lookup/street', { rawBody: '{"streetname": ' }), 400, 'invalid_request');
  });

  it('400 with field paths on missing or wrong-typed fields', async () => {
    const missing = expectError(
      await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg' } }),
      400,
      'invalid_request',
    );
    expect(missing.error.details?.map((d) => d.path)).toContain('body.number');
    const wrong = expectError(
      await api.call('POST', '/lookup/street', { body: { streetname: 12, number: [] } }),
      400,
      'invalid_request',
    );
    expect(wrong.error.details?.map((d) => d.path)).toEqual(expect.arrayContaining(['body.streetname', 'body.number']));
    const unparsable = expectError(
      await api.call('POST', '/lookup/street', { body: { streetname: 'Mekelweg', number: 'abc' } }),
      400,
      'invalid_request',
    );
    expect(unparsable.error.details?.[0]?.path).toBe('body.number');
  });

  it('400 on a bad query parameter', async () => {
    expectError(await api.call('GET', '/countries?country_code=N1'), 400, 'invalid_request');
  });

  it('413 when the body is over the limit', async () => {
    const res = await api.call('POST', '/lookup/street', {
      rawBody: JSON.stringify({ streetname: 'x'.repeat(20_000), number: '1' }),
    });
    expectError(res, 413, 'payload_too_large');
  });

  it('415 when a POST is not JSON', async () => {
    const res = await api.call('POST', '/lookup/street', {
      rawBody: 'streetname=Mekelweg',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('405 with Allow on a wrong method; 404 on an unknown path', async () => {
    const res = await api.call('GET', '/lookup/street');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('POST');
    expectError(await api.call('GET', '/no/such/endpoint'), 404, 'not_found');
  });
});
