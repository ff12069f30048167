/**
 * The Photon dialect (/photon/) against the sample in the real Elasticsearch: its GeoJSON over HTTP, and geopy's
 * Photon class (the geocoder geopandas' `tools.geocode` uses by default), unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import { type GeopyLocation, runGeopy } from '../../../../support/geopy.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

const photon = (path: string, params: Record<string, string>) =>
  fetch(`${api.url}/photon/${path}?${new URLSearchParams({ ...params, api_key: TEST_API_KEY })}`).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as any,
  }));

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

describe('GET /photon/api', () => {
  it("answers the native results as Photon's features", async () => {
    const native = await nativeTop('Mekelweg 8 Delft');
    const { status, body } = await photon('api', { q: 'Mekelweg 8 Delft', limit: '2' });
    expect(status).toBe(200);
    expect(body.type).toBe('FeatureCollection');
    expect(body.features).toHaveLength(2);
    expect(body.features[0]).toMatchObject({
      geometry: { type: 'Point', coordinates: [native.longitude, native.latitude] },
      properties: {
        id: native.id,
        type: 'house',
        housenumber: '8',
        street: 'Mekelweg',
        postcode: '2628CD',
        city: 'Delft',
        countrycode: 'NL',
      },
    });
    const street = body.features[1].properties;
    expect(street).toMatchObject({ type: 'street', name: 'Mekelweg' });
    // Photon's extent: [minLon, maxLat, maxLon, minLat].
    expect(street.extent[1]).toBeGreaterThan(street.extent[3]);
  });

  it("answers at the path with a trailing slash, as Photon does (Leaflet Control Geocoder's default `…/api/`)", async () => {
    const bare = await photon('api', { q: 'Mekelweg 8 Delft', limit: '2' });
    const slash = await photon('api/', { q: 'Mekelweg 8 Delft', limit: '2' });
    expect(slash).toEqual(bare);
    const inPath = await fetch(`${api.url}/k/${TEST_API_KEY}/photon/api/?q=Mekelweg%208%20Delft&limit=2`);
    expect([inPath.status, await inPath.json()]).toEqual([200, bare.body]);
    // A native path keeps one spelling; a dialect's path takes one slash, not two.
    expect((await api.call('GET', '/search/?q=Mekelweg')).status).toBe(404);
    expect((await api.call('GET', '/photon/api//?q=Mekelweg')).status).toBe(404);
  });

  it('keeps to layer and bbox, and shows lang names (Brussels in French)', async () => {
    const cities = await photon('api', { q: 'Delft', layer: 'city' });
    expect(cities.body.features.map((f: any) => f.properties.type)).toEqual(['city']);
    const away = await photon('api', { q: 'Mekelweg 8 Delft', bbox: '4.3,50.8,4.4,50.9' });
    expect(away.body.features).toEqual([]);
    const french = await photon('api', { q: 'Nieuwstraat 1, 1000 Brussel', lang: 'fr', limit: '1' });
    expect(french.body.features[0].properties).toMatchObject({ street: 'Rue Neuve', city: 'Bruxelles' });
  });

  it("answers errors in Photon's shape, with our statuses", async () => {
    expect(await photon('api', { q: '' })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/q/) },
    });
    expect((await photon('api', { q: 'Delft', layer: 'planet' })).status).toBe(400);
    const res = await fetch(`${api.url}/photon/api?q=Delft`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });
});

describe('GET /photon/reverse', () => {
  it('answers the nearest addresses, an area where there is none, nothing at sea', async () => {
    const native = await nativeTop('Mekelweg 8 Delft');
    const at = { lat: String(native.latitude), lon: String(native.longitude) };
    const near = await photon('reverse', { ...at, limit: '2' });
    expect(near.body.features[0].properties).toMatchObject({ id: native.id, type: 'house', state: 'Zuid-Holland' });
    expect(near.body.features.length).toBeLessThanOrEqual(2);
    const wide = await photon('reverse', { lat: '51.99', lon: '4.37', radius: '0.01' });
    expect(wide.body.features[0].properties.type).not.toBe('house');
    expect((await photon('reverse', { lat: '0', lon: '-30' })).body).toEqual({
      type: 'FeatureCollection',
      features: [],
    });
  });
});

describe("geopy's Photon", () => {
  it('geocodes an address, a street, a city, a Brussels address in French, and reverses', async () => {
    const domain = `${new URL(api.url).host}/photon`;
    const [address, street, city, brussels, reverse, nothing] = await runGeopy('photon', domain, TEST_API_KEY, [
      { op: 'geocode', query: 'Mekelweg 8, 2628 CD Delft' },
      { op: 'geocode', query: 'Mekelweg Delft', kwargs: { location_bias: '52.0, 4.37' } },
      { op: 'geocode', query: 'Delft', kwargs: { exactly_one: false, limit: 3 } },
      { op: 'geocode', query: 'Rue Neuve 1, 1000 Bruxelles', kwargs: { language: 'fr' } },
      { op: 'reverse', query: '51.995343, 4.3758823' },
      { op: 'reverse', query: '0, -30' },
    ]);
    const mekelweg = await nativeTop('Mekelweg 8 Delft');
    expect(address).toMatchObject({ latitude: mekelweg.latitude, longitude: mekelweg.longitude });
    expect((address as GeopyLocation).address).toBe('8, Mekelweg, 2628CD, Mekelweg, Delft, Netherlands');
    expect((street as GeopyLocation).raw.properties).toMatchObject({ type: 'street', name: 'Mekelweg' });
    expect((city as GeopyLocation[])[0]!.raw.properties).toMatchObject({ type: 'city', name: 'Delft' });
    expect((brussels as GeopyLocation).raw.properties).toMatchObject({ street: 'Rue Neuve', housenumber: '1' });
    expect((reverse as GeopyLocation).raw.properties.id).toBe(mekelweg.id);
    expect(nothing).toBeNull();
  });
});
