/**
 * The Nominatim dialect (/nominatim/) against the sample in the real Elasticsearch: its formats and parameters over
 * HTTP, and the clients people use unchanged: geopy's Nominatim class (Debian's python3-geopy) and node-geocoder's
 * openstreetmap provider, pointed at us by their base URL settings.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import { uniqueIndexPrefix } from '../../../../support/elasticsearch.js';
import { type GeopyLocation, runGeopy } from '../../../../support/geopy.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

/** As a client without headers sends it: the key in the query string. */
const nominatim = (path: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/nominatim/${path}?${new URLSearchParams({ ...params, api_key: TEST_API_KEY })}`, { headers }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as any }),
  );

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

describe('GET /nominatim/search', () => {
  it('answers the native top result with the fields Nominatim clients read, the key in the query string', async () => {
    const native = await nativeTop('Mekelweg 8 Delft');
    const { status, body } = await nominatim('search', { q: 'Mekelweg 8 Delft', format: 'json', addressdetails: '1' });
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({
      place_id: native.id,
      lat: String(native.latitude),
      lon: String(native.longitude),
      class: 'place',
      type: 'house',
      display_name: '8, Mekelweg, Delft, 2628CD, Netherlands',
      address: { house_number: '8', road: 'Mekelweg', city: 'Delft', postcode: '2628CD', country_code: 'nl' },
      licence: expect.stringContaining('OpenStreetMap'),
    });
    expect(body[0].boundingbox).toHaveLength(4);
    expect(body[0].boundingbox.every((v: unknown) => typeof v === 'string')).toBe(true);
  });

  it('reads the structured form and answers jsonv2 (category, place_rank, addresstype) by default', async () => {
    const { body } = await nominatim('search', { street: '8 Mekelweg', city: 'Delft', postalcode: '2628 CD' });
    expect(body[0]).toMatchObject({ category: 'place', type: 'house', place_rank: 30, addresstype: 'place' });
    expect(body[0]).not.toHaveProperty('class');
    expect(body[0].place_id).toBe((await nativeTop('Mekelweg 8 Delft')).id);
  });

  it('answers geojson and geocodejson', async () => {
    const geojson = (await nominatim('search', { q: 'Delft', format: 'geojson', limit: '1' })).body;
    expect(geojson).toMatchObject({ type: 'FeatureCollection', features: [{ type: 'Feature' }] });
    expect(geojson.features).toHaveLength(1);
    expect(geojson.features[0].properties).toMatchObject({ name: 'Delft', addresstype: 'city' });
    const geocodejson = (await nominatim('search', { q: 'Delft', format: 'geocodejson', limit: '1' })).body;
    expect(geocodejson.geocoding).toMatchObject({ version: '0.1.0', query: 'Delft' });
    expect(geocodejson.features[0].properties.geocoding).toMatchObject({ type: 'city', name: 'Delft' });
  });

  it('keeps to countrycodes, limit and a bounded viewbox', async () => {
    expect((await nominatim('search', { q: 'Delft', countrycodes: 'de' })).body).toEqual([]);
    expect((await nominatim('search', { q: 'Delft', countrycodes: 'nl,de', limit: '1' })).body).toHaveLength(1);
    // A box around Brussels holds no Delft.
    const away = { q: 'Mekelweg 8 Delft', viewbox: '4.3,50.8,4.4,50.9', bounded: '1' };
    expect((await nominatim('search', away)).body.map((r: any) => r.name)).not.toContain('Mekelweg 8');
  });

  it('polygon_geojson: the outline of an area, thinned by polygon_threshold; a point for an address', async () => {
    const [city] = (await nominatim('search', { q: 'Delft', polygon_geojson: '1', limit: '1' })).body;
    expect(city.addresstype).toBe('city');
    expect(['Polygon', 'MultiPolygon']).toContain(city.geojson.type);
    const points = (g: any): number => JSON.stringify(g.coordinates).split('],[').length;
    const thin = (
      await nominatim('search', { q: 'Delft', polygon_geojson: '1', polygon_threshold: '0.01', limit: '1' })
    ).body[0];
    expect(points(thin.geojson)).toBeLessThan(points(city.geojson));
    const [address] = (await nominatim('search', { q: 'Mekelweg 8 Delft', polygon_geojson: '1' })).body;
    expect(address.geojson.type).toBe('Point');
    const collection = (await nominatim('search', { q: 'Delft', format: 'geojson', polygon_geojson: '1', limit: '1' }))
      .body;
    expect(collection.features[0].geometry.type).toBe(city.geojson.type);
    expect((await nominatim('search', { q: 'Delft', limit: '1' })).body[0]).not.toHaveProperty('geojson');
  });

  it('shows the names accept-language asks for (Brussels in French)', async () => {
    const q = { q: 'Nieuwstraat 1, 1000 Brussel', addressdetails: '1' };
    const french = (await nominatim('search', { ...q, 'accept-language': 'fr' })).body[0];
    expect(french.address).toMatchObject({ road: 'Rue Neuve', city: 'Bruxelles', house_number: '1' });
    const header = (await nominatim('search', q, { 'Accept-Language': 'fr-BE,fr;q=0.9' })).body[0];
    expect(header.address).toMatchObject({ road: 'Rue Neuve' });
  });

  it("answers errors in Nominatim's shape, with our statuses", async () => {
    const neither = await nominatim('search', { format: 'json' });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: { code: 400, message: expect.stringContaining('q') } });
    expect((await nominatim('search', { q: 'Delft', format: 'xml' })).status).toBe(400);
    const res = await fetch(`${api.url}/nominatim/search?q=Delft`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
  });
});

describe('GET /nominatim/reverse, /lookup, /status', () => {
  it('answers the nearest address at zoom 18, the city at zoom 10, the error object where nothing is', async () => {
    const mekelweg = await nativeTop('Mekelweg 8 Delft');
    const at = { lat: String(mekelweg.latitude), lon: String(mekelweg.longitude) };
    const address = (await nominatim('reverse', { ...at, format: 'jsonv2' })).body;
    expect(address).toMatchObject({ place_id: mekelweg.id, addresstype: 'place' });
    expect(address.address).toMatchObject({
      house_number: '8',
      road: 'Mekelweg',
      city: 'Delft',
      state: 'Zuid-Holland',
    });
    const city = (await nominatim('reverse', { ...at, zoom: '10' })).body;
    expect(city).toMatchObject({ name: 'Delft', addresstype: 'city' });
    expect(city.address).not.toHaveProperty('road');
    const sea = await nominatim('reverse', { lat: '0', lon: '-30' });
    expect(sea).toEqual({ status: 200, body: { error: 'Unable to geocode' } });
    const bad = await nominatim('reverse', { lat: '91', lon: '4' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/lat/);
  });

  it('looks up our ids and reports its status', async () => {
    const mekelweg = await nativeTop('Mekelweg 8 Delft');
    const { body } = await nominatim('lookup', { osm_ids: `${mekelweg.id},no-such-id`, format: 'json' });
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ place_id: mekelweg.id, name: 'Mekelweg 8' });
    expect(await (await fetch(`${api.url}/nominatim/status`)).text()).toBe('OK');
    expect(await (await fetch(`${api.url}/nominatim/status?format=json`)).json()).toEqual({ status: 0, message: 'OK' });
  });
});

describe('the attribution of an answer', () => {
  const OSM = '© OpenStreetMap contributors, ODbL 1.0';
  const BEST = 'BeST Address / UrbIS (BOSA)';
  const CBS = '© CBS / Kadaster, CC BY 4.0';
  const NATURAL_EARTH = 'Made with Natural Earth (public domain)';

  it('names the sources of its data: a Delft address its own, a Brussels address BeST Address / UrbIS', async () => {
    // The sample's Delft addresses come from OpenStreetMap (imported there from the BAG); Brussels' from BeST / UrbIS,
    // their French street names from OpenStreetMap; the country names from Natural Earth (datasets/sample.json).
    const delft = (await nominatim('search', { q: 'Mekelweg 8 Delft', format: 'json' })).body[0];
    expect(delft.place_id).toBe((await nativeTop('Mekelweg 8 Delft')).id);
    expect(delft.licence).toBe(`${OSM}; ${NATURAL_EARTH}`);
    const brussels = (await nominatim('search', { q: 'Rue Neuve 1, 1000 Bruxelles', format: 'json' })).body[0];
    expect(brussels).toMatchObject({ display_name: expect.stringContaining('1000'), addresstype: 'place' });
    expect(brussels.licence).toBe(`${BEST}; French street names ${OSM}; ${NATURAL_EARTH}`);
    expect(brussels.licence).not.toContain('CBS');

    // A collection names the sources of all its results, each once.
    const both = (await nominatim('search', { q: 'Mekelweg 8 Delft', format: 'geojson' })).body;
    expect(both.licence).toBe(delft.licence);
    const geocodejson = (await nominatim('search', { q: 'Rue Neuve 1, 1000 Bruxelles', format: 'geocodejson' })).body;
    expect(geocodejson.geocoding).toMatchObject({ licence: brussels.licence, attribution: brussels.licence });

    // Reverse names the areas around the address too: Delft's municipality and province are CBS / Kadaster's.
    const at = { lat: String(delft.lat), lon: String(delft.lon) };
    const reverse = (await nominatim('reverse', { ...at, format: 'jsonv2' })).body;
    expect(reverse.address).toMatchObject({ state: 'Zuid-Holland' });
    expect(reverse.licence).toBe(`${OSM}; ${CBS}; ${NATURAL_EARTH}`);
  });

  it("is Pelias' geocoding.attribution too", async () => {
    const get = async (path: string, params: Record<string, string>) =>
      (await fetch(`${api.url}${path}?${new URLSearchParams({ ...params, api_key: TEST_API_KEY })}`)).json() as any;
    const brussels = await get('/pelias/v1/search', { text: 'Rue Neuve 1, 1000 Bruxelles', size: '1' });
    expect(brussels.geocoding.attribution).toBe(`${BEST}; French street names ${OSM}; ${NATURAL_EARTH}`);
    const delft = await get('/pelias/v1/autocomplete', { text: 'Mekelweg 8' });
    expect(delft.geocoding.attribution).toBe(`${OSM}; ${NATURAL_EARTH}`);
  });
});

describe('the key in the query string', () => {
  it('never reaches a log line, on an answer or an error (one logged at error level too), and the header works as well', async () => {
    const lines: { msg: string; level: number; [key: string]: unknown }[] = [];
    const logSink = (line: { msg: string; [key: string]: unknown }) => lines.push(line as (typeof lines)[number]);
    const logged = await startTestApi({ logSink });
    // No index under this prefix: Elasticsearch answers index_not_found, a 503 whose line is logged at error level
    // with the error and its cause (what Elasticsearch said of the search), the line most likely to carry a request's
    // details.
    const unloaded = await startTestApi({ logSink, indexPrefix: uniqueIndexPrefix('nominatim-unloaded') });
    try {
      const key = encodeURIComponent(TEST_API_KEY);
      const ok = await fetch(`${logged.url}/nominatim/search?q=Delft&api_key=${key}`);
      expect(ok.status).toBe(200);
      expect((await fetch(`${logged.url}/nominatim/reverse?lat=x&lon=4&key=${key}`)).status).toBe(400);
      expect((await fetch(`${logged.url}/nominatim/search?q=Delft&api_key=wrong-key-value`)).status).toBe(401);
      const header = await fetch(`${logged.url}/nominatim/search?q=Delft`, { headers: { 'X-Api-Key': TEST_API_KEY } });
      expect(header.status).toBe(200);
      const failed = await fetch(`${unloaded.url}/nominatim/search?q=Delft&api_key=${key}`);
      expect(failed.status).toBe(503);
      expect(await failed.json()).toEqual({ error: { code: 503, message: expect.any(String) } });

      // pino's levels: 30 info, 50 error.
      const requests = lines.filter((line) => line.msg === 'request');
      expect(requests.map((line) => [line.level, line.status])).toEqual([
        [30, 200],
        [30, 400],
        [30, 401],
        [30, 200],
      ]);
      const errors = lines.filter((line) => line.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ msg: 'request failed', status: 503, path: '/nominatim/search' });
      // The error with its cause, Elasticsearch's answer, folded in (pino's error serialiser).
      expect(errors[0]?.err).toMatchObject({
        type: 'BackendUnavailableError',
        message: expect.stringContaining('index_not_found_exception'),
        stack: expect.stringContaining('caused by: ResponseError'),
      });
      const text = JSON.stringify(lines);
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain(key);
      expect(text).not.toContain('wrong-key-value');
    } finally {
      await logged.close();
      await unloaded.close();
    }
  });
});

describe('the real clients', () => {
  const domain = () => `${new URL(api.url).host}/nominatim`;

  it("geopy's Nominatim: an address, a street, a city, a Brussels address in French, and reverse", async () => {
    const [address, street, city, brussels, structured, reverse, nothing] = await runGeopy(
      'nominatim',
      domain(),
      TEST_API_KEY,
      [
        { op: 'geocode', query: 'Mekelweg 8, 2628 CD Delft', kwargs: { addressdetails: true } },
        { op: 'geocode', query: 'Mekelweg Delft' },
        { op: 'geocode', query: 'Delft', kwargs: { exactly_one: false, limit: 3 } },
        { op: 'geocode', query: 'Rue Neuve 1, 1000 Bruxelles', kwargs: { language: 'fr', addressdetails: true } },
        { op: 'geocode', query: { street: '8 Mekelweg', city: 'Delft' } },
        { op: 'reverse', query: '51.995343, 4.3758823', kwargs: { language: 'nl' } },
        { op: 'reverse', query: '0, -30' },
      ],
    );
    const mekelweg = await nativeTop('Mekelweg 8 Delft');
    expect(address).toMatchObject({ latitude: mekelweg.latitude, longitude: mekelweg.longitude });
    expect((address as GeopyLocation).raw.address).toMatchObject({ house_number: '8', road: 'Mekelweg' });
    expect((street as GeopyLocation).raw).toMatchObject({ name: 'Mekelweg', addresstype: 'road' });
    expect((city as GeopyLocation[])[0]!.raw).toMatchObject({ name: 'Delft', addresstype: 'city' });
    expect((city as GeopyLocation[]).length).toBeLessThanOrEqual(3);
    expect((brussels as GeopyLocation).address).toBe('1, Rue Neuve, Bruxelles, 1000, Belgium');
    expect((structured as GeopyLocation).raw.place_id).toBe(mekelweg.id);
    expect((reverse as GeopyLocation).raw).toMatchObject({ place_id: mekelweg.id });
    expect((reverse as GeopyLocation).address).toContain('Mekelweg');
    expect(nothing).toBeNull();
  });

  it("node-geocoder's openstreetmap provider: geocode and reverse", async () => {
    const NodeGeocoder = createRequire(import.meta.url)('node-geocoder') as (options: object) => {
      geocode(q: string | object): Promise<any[]>;
      reverse(q: { lat: number; lon: number }): Promise<any[]>;
    };
    const geocoder = NodeGeocoder({
      provider: 'openstreetmap',
      osmServer: `${api.url}/nominatim`,
      // node-geocoder passes its options on to fetch: the key as a header.
      headers: { 'X-Api-Key': TEST_API_KEY },
    });
    const [first] = await geocoder.geocode('Mekelweg 8, 2628 CD Delft');
    expect(first).toMatchObject({ streetName: 'Mekelweg', streetNumber: '8', city: 'Delft', zipcode: '2628CD' });
    expect(first).toMatchObject({ countryCode: 'NL', country: 'Netherlands' });
    const [reversed] = await geocoder.reverse({ lat: first.latitude, lon: first.longitude });
    expect(reversed).toMatchObject({ streetName: 'Mekelweg', streetNumber: '8', state: 'Zuid-Holland' });
    await expect(geocoder.reverse({ lat: 0, lon: -30 })).rejects.toThrow('Unable to geocode');
  });
});
