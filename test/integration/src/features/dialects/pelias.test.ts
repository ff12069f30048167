/**
 * The Pelias dialect (/pelias/v1/) against the sample in the real Elasticsearch: search, autocomplete, reverse and
 * place over HTTP, and geopy's Pelias class unchanged (it sends the key as `api_key=` itself).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { streetId } from '../../../../../core/elasticsearch/stableIds.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import { type GeopyLocation, runGeopy } from '../../../../support/geopy.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

const pelias = (path: string, params: Record<string, string>) =>
  fetch(`${api.url}/pelias/v1/${path}?${new URLSearchParams({ ...params, api_key: TEST_API_KEY })}`).then(
    async (res) => ({ status: res.status, body: (await res.json()) as any }),
  );

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

describe('GET /pelias/v1/search and /autocomplete', () => {
  it("answers the native results as Pelias' GeoJSON, with the geocoding block and bbox", async () => {
    const native = await nativeTop('Mekelweg 8 Delft');
    const { status, body } = await pelias('search', { text: 'Mekelweg 8 Delft', size: '2' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'FeatureCollection',
      geocoding: { version: '0.2', query: { text: 'Mekelweg 8 Delft', size: 2 } },
    });
    expect(body.geocoding.query).not.toHaveProperty('api_key');
    expect(body.bbox).toHaveLength(4);
    expect(body.features[0]).toMatchObject({
      geometry: { type: 'Point', coordinates: [native.longitude, native.latitude] },
      properties: {
        gid: `geocoder:address:${native.id}`,
        layer: 'address',
        source: 'geocoder',
        name: 'Mekelweg 8',
        housenumber: '8',
        street: 'Mekelweg',
        postalcode: '2628CD',
        locality: 'Delft',
        country: 'Netherlands',
        country_a: 'NLD',
        match_type: 'exact',
        accuracy: 'point',
        label: 'Mekelweg 8, Delft, Netherlands',
      },
    });
    expect(body.features[1].properties).toMatchObject({ layer: 'street', name: 'Mekelweg' });
    expect(body.features[1].bbox).toHaveLength(4);
  });

  it('keeps to layers, boundary.country, boundary.rect and boundary.circle; lang names', async () => {
    const cities = await pelias('search', { text: 'Delft', layers: 'locality' });
    expect(cities.body.features.map((f: any) => f.properties.layer)).toEqual(['locality']);
    expect((await pelias('search', { text: 'Delft', 'boundary.country': 'DEU' })).body.features).toEqual([]);
    const rect = {
      'boundary.rect.min_lat': '50.8',
      'boundary.rect.min_lon': '4.3',
      'boundary.rect.max_lat': '50.9',
      'boundary.rect.max_lon': '4.4',
    };
    expect((await pelias('search', { text: 'Mekelweg 8 Delft', ...rect })).body.features).toEqual([]);
    const circle = { 'boundary.circle.lat': '50.85', 'boundary.circle.lon': '4.35', 'boundary.circle.radius': '5' };
    expect((await pelias('search', { text: 'Mekelweg 8 Delft', ...circle })).body.features).toEqual([]);
    const french = await pelias('search', { text: 'Nieuwstraat 1, 1000 Brussel', lang: 'fr', size: '1' });
    expect(french.body.features[0].properties).toMatchObject({
      street: 'Rue Neuve',
      locality: 'Bruxelles',
      country_a: 'BEL',
    });
  });

  it('autocomplete: `layers` is part of the request, so `size` such suggestions come back where they exist', async () => {
    // "Del" at size 5: three streets fill the unfiltered answer before the third area (Delfgauw).
    const unfiltered = await pelias('autocomplete', { text: 'Del', size: '5' });
    const layersOf = (features: any[]) => features.map((f: any) => `${f.properties.layer} ${f.properties.name}`);
    expect(layersOf(unfiltered.body.features)).not.toContain('locality Delfgauw');
    const areas = await pelias('autocomplete', { text: 'Del', size: '3', layers: 'locality,localadmin' });
    expect(layersOf(areas.body.features)).toEqual(['locality Delft', 'localadmin Delft', 'locality Delfgauw']);
    const streets = await pelias('autocomplete', { text: 'Del', size: '5', layers: 'street' });
    expect(streets.body.features.length).toBeGreaterThan(0);
    expect(new Set(streets.body.features.map((f: any) => f.properties.layer))).toEqual(new Set(['street']));
  });

  it('autocomplete: `boundary.country` is part of the request: the suggestions in those countries come back', async () => {
    const namesOf = (features: any[]) => features.map((f: any) => `${f.properties.layer} ${f.properties.label}`);
    const delft = [
      'street Delftechpark, Delft',
      'street Deltaweg, Delft',
      'street Plein Delftzicht, Delft',
      'locality Delft',
    ];
    // The streets carry no country to check afterwards: the searches keep to their documents' country.
    for (const country of ['NL', 'NLD', 'nl', 'BE,NL', 'NL,DEU']) {
      const { status, body } = await pelias('autocomplete', { text: 'Del', size: '4', 'boundary.country': country });
      expect(status).toBe(200);
      expect(namesOf(body.features)).toEqual(delft);
    }
    for (const country of ['BE', 'BEL', 'DEU']) {
      const { status, body } = await pelias('autocomplete', { text: 'Del', 'boundary.country': country });
      expect(status).toBe(200);
      expect(body.features).toEqual([]);
    }
  });

  it('autocomplete: `boundary.rect` and `boundary.circle` are part of the request: `size` suggestions inside', async () => {
    // Unbounded, "Kerk" at size 1 is Kersbergenstraat in Delft: a filter of the answer would leave nothing.
    const unbounded = await pelias('autocomplete', { text: 'Kerk', size: '1' });
    expect(unbounded.body.features[0].properties.label).toBe('Kersbergenstraat, Delft');
    const rect = {
      'boundary.rect.min_lat': '50.75',
      'boundary.rect.min_lon': '4.25',
      'boundary.rect.max_lat': '50.95',
      'boundary.rect.max_lon': '4.5',
    };
    const circle = { 'boundary.circle.lat': '50.85', 'boundary.circle.lon': '4.35', 'boundary.circle.radius': '5' };
    for (const bounds of [rect, circle]) {
      const { status, body } = await pelias('autocomplete', { text: 'Kerk', size: '1', ...bounds });
      expect(status).toBe(200);
      expect(body.features.map((f: any) => f.properties.label)).toEqual(['Kerstenmannekensstraat, Brussel']);
    }
  });

  it('autocomplete: the native suggestions', async () => {
    const { body } = await pelias('autocomplete', { text: 'Mekelw' });
    const native = (await api.call('GET', '/autocomplete?q=Mekelw')).body;
    expect(body.features.map((f: any) => f.properties.label.split(',')[0])).toContain('Mekelweg');
    expect(body.features).toHaveLength(native.length);
    expect(body.features[0].geometry.coordinates).toEqual([native[0].longitude, native[0].latitude]);
  });

  it("gives a street its own stable id, the streets index's, the same in every answer and dialect", async () => {
    const get = async (path: string) => (await fetch(`${api.url}${path}`)).json() as Promise<any>;
    const withKey = (path: string, params: Record<string, string>) =>
      get(`${path}?${new URLSearchParams({ ...params, api_key: TEST_API_KEY })}`);
    // The streets index's documents of two streets, Dutch and Brussels: the ids the answers must give.
    const streets = await api.client.search<{ id: string; street_key: string; city_key: string }>({
      index: `${inject('samplePrefix')}streets`,
      query: { terms: { street_key: ['mekelweg', 'elizastraat'] } },
      _source: ['id', 'street_key', 'city_key'],
    });
    const docs = streets.hits.hits.map((hit) => hit._source!);
    expect(docs.map((d) => d.street_key).sort()).toEqual(['elizastraat', 'mekelweg']);
    for (const doc of docs) {
      // Derived from the data's keys alone (core/elasticsearch/stableIds.ts): a reindex of the same data gives it again.
      expect(doc.id).toBe(streetId(doc.street_key, doc.city_key));
    }
    const [mekelweg, eliza] = ['mekelweg', 'elizastraat'].map((key) => docs.find((d) => d.street_key === key)!.id);

    for (const [text, name, id, focus] of [
      ['Mekelw', 'Mekelweg Delft', mekelweg, { 'focus.point.lat': '51.99', 'focus.point.lon': '4.37' }],
      ['Elizastr', 'Elizastraat Elsene', eliza, {}],
    ] as const) {
      const streetOf = (features: any[]) => features.find((f) => f.properties.layer === 'street');
      // Asked again, and with a focus (the refined and the searched street answers alike).
      for (const params of [{ text }, { text, ...focus }, { text }]) {
        const suggested = streetOf((await pelias('autocomplete', params)).body.features);
        expect(suggested.properties).toMatchObject({ id, gid: `geocoder:street:${id}`, source_id: id });
      }
      const searched = streetOf((await pelias('search', { text: name, layers: 'street' })).body.features);
      expect(searched.properties.gid).toBe(`geocoder:street:${id}`);
      const native = (await api.call('GET', `/autocomplete?q=${text}`)).body;
      expect(native.find((s: any) => s.type === 'street')).toMatchObject({ id });
    }
    const nativeStreet = (await api.call('GET', '/search?q=Mekelweg%20Delft')).body.find(
      (r: any) => r.type === 'street',
    );
    expect(nativeStreet.id).toBe(mekelweg);
    const photon = await withKey('/photon/api', { q: 'Mekelweg Delft', layer: 'street' });
    expect(photon.features[0].properties).toMatchObject({ type: 'street', id: mekelweg });

    // The street of the nearest address (reverse): the native answer's `street_id`, Nominatim's street level.
    const address = await nativeTop('Mekelweg 8 Delft');
    const at = { lat: String(address.latitude), lon: String(address.longitude) };
    const reverse = (await api.call('GET', `/reverse?${new URLSearchParams(at)}`)).body;
    expect(reverse.addresses[0]).toMatchObject({ streetname: 'Mekelweg', street_id: mekelweg });
    const nominatim = await withKey('/nominatim/reverse', { ...at, zoom: '16', format: 'jsonv2' });
    expect(nominatim).toMatchObject({ addresstype: 'road', name: 'Mekelweg', place_id: mekelweg });
  });

  it("answers errors in Pelias' shape, with our statuses", async () => {
    const missing = await pelias('search', { size: '3' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      type: 'FeatureCollection',
      features: [],
      geocoding: { errors: [expect.stringMatching(/text/)] },
    });
    expect((await pelias('search', { text: 'x', layers: 'venue' })).status).toBe(400);
    const res = await fetch(`${api.url}/pelias/v1/search?text=Delft`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).geocoding.errors).toHaveLength(1);
  });
});

describe('GET /pelias/v1/reverse and /place', () => {
  it('the nearest address first, then the areas containing the point; a place by its gid', async () => {
    const native = await nativeTop('Mekelweg 8 Delft');
    const at = { 'point.lat': String(native.latitude), 'point.lon': String(native.longitude) };
    const { body } = await pelias('reverse', at);
    expect(body.features[0].properties).toMatchObject({ gid: `geocoder:address:${native.id}`, region: 'Zuid-Holland' });
    expect(body.features.length).toBeLessThanOrEqual(10);
    const areas = await pelias('reverse', { ...at, layers: 'coarse' });
    const layers = areas.body.features.map((f: any) => f.properties.layer);
    expect(layers).toEqual(['neighbourhood', 'locality', 'localadmin', 'region', 'country']);
    const coarse = await pelias('reverse', { ...at, layers: 'coarse', size: '1' });
    expect(coarse.body.features.map((f: any) => f.properties.layer)).toEqual(['neighbourhood']);
    expect((await pelias('reverse', { 'point.lat': '0', 'point.lon': '-30' })).body.features).toEqual([]);
    const place = await pelias('place', {
      ids: `geocoder:address:${native.id},geocoder:address:nope,whosonfirst:locality:1`,
    });
    expect(place.body.features.map((f: any) => f.properties.id)).toEqual([native.id]);
  });
});

describe("geopy's Pelias", () => {
  it('geocodes an address, a street, a city, a Brussels address in French, and reverses', async () => {
    const domain = `${new URL(api.url).host}/pelias`;
    const [address, street, city, brussels, reverse, nothing] = await runGeopy('pelias', domain, TEST_API_KEY, [
      { op: 'geocode', query: 'Mekelweg 8, 2628 CD Delft' },
      { op: 'geocode', query: 'Mekelweg Delft', kwargs: { country_bias: 'NLD' } },
      { op: 'geocode', query: 'Delft', kwargs: { exactly_one: false } },
      { op: 'geocode', query: 'Rue Neuve 1, 1000 Bruxelles', kwargs: { language: 'fr' } },
      { op: 'reverse', query: '51.995343, 4.3758823' },
      { op: 'reverse', query: '0, -30' },
    ]);
    const mekelweg = await nativeTop('Mekelweg 8 Delft');
    expect(address).toMatchObject({
      address: 'Mekelweg 8',
      latitude: mekelweg.latitude,
      longitude: mekelweg.longitude,
    });
    expect((street as GeopyLocation).raw.properties).toMatchObject({ layer: 'street', name: 'Mekelweg' });
    expect((city as GeopyLocation[])[0]!.raw.properties).toMatchObject({ layer: 'locality', name: 'Delft' });
    expect((brussels as GeopyLocation).address).toBe('Rue Neuve 1');
    expect((reverse as GeopyLocation).raw.properties.id).toBe(mekelweg.id);
    expect(nothing).toBeNull();
  });
});
