/**
 * The API reference: GET /openapi.json is a valid OpenAPI 3.1 document (checked by an independent validator of the
 * official schema), lists exactly the routes the router serves, and describes what the service really answers:
 * real answers of every operation, errors included, validate against the document's own schemas (Ajv, JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1). /docs serves Swagger UI on it from local files only.
 */
import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestResponse } from '../../../support/api.js';

type Json = any;

let api: TestApi;
let doc: Json;
let ajv: Ajv2020;
/** `get /addresses/{id}` of every operation a real answer was checked against. */
const answered = new Set<string>();

beforeAll(async () => {
  api = await startTestApi();
  const res = await fetch(`${api.url}/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc, 'openapi.json');
});

afterAll(() => api.close());

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1')));

/** The document's path template that a request path falls under (literal segments before parameters). */
function templateOf(path: string): string {
  const segments = path.split('?')[0]!.split('/');
  const candidates = Object.keys(doc.paths).filter((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === segments[i]);
  });
  // `/countries/geojson` is literal where `/countries/{id}/...` is not: fewer parameters first.
  candidates.sort((a, b) => a.split('{').length - b.split('{').length);
  if (!candidates[0]) throw new Error(`no path of the document serves ${path}`);
  return candidates[0];
}

/** What the document says `method template` answers with `status`, and the JSON pointer of that response object. */
function documentedResponse(method: string, template: string, status: number): { response: Json; at: string[] } {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  expect(operation, `${method} ${template} is documented`).toBeDefined();
  const response = operation.responses[String(status)];
  expect(response, `${method} ${template}: status ${status} is documented`).toBeDefined();
  if (!response.$ref) return { response, at: ['paths', template, method.toLowerCase(), 'responses', String(status)] };
  const name = response.$ref.split('/').pop();
  return { response: doc.components.responses[name], at: ['components', 'responses', name] };
}

/** The document's schema of that response body, compiled by Ajv (its $refs resolve inside the document). */
function bodySchema(method: string, template: string, status: number, mediaType: string) {
  const { response, at } = documentedResponse(method, template, status);
  expect(Object.keys(response.content ?? {}), `${method} ${template} ${status}: media type`).toContain(mediaType);
  return ajv.getSchema(`openapi.json#/${pointer(...at, 'content', mediaType, 'schema').join('/')}`)!;
}

/** Checks one real answer against the document: its status, headers, media type and body. */
function expectDocumented(method: string, path: string, res: TestResponse): void {
  const template = templateOf(path);
  const { response } = documentedResponse(method, template, res.status);
  for (const name of Object.keys(response.headers ?? {})) {
    expect(res.headers.get(name), `${method} ${path} ${res.status}: header ${name}`).toBeTruthy();
  }
  if (res.status !== 304) {
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const validate = bodySchema(method, template, res.status, mediaType);
    const body = mediaType.endsWith('json') ? JSON.parse(res.text) : res.text;
    expect(validate(body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  answered.add(`${method.toLowerCase()} ${template}`);
}

/** A request with the test key, checked against the document; answers the parsed body. */
async function call(
  method: string,
  path: string,
  expected: number,
  options: Parameters<TestApi['call']>[2] = {},
  on: TestApi = api,
): Promise<TestResponse> {
  const res = await on.call(method, path, options);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(expected);
  expectDocumented(method, path, res);
  return res;
}

const GEOJSON = { accept: 'application/geo+json' };

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (official JSON schema), served without a key', async () => {
    const res = await fetch(`${api.url}/openapi.json`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const result = await new Validator().validate((await res.json()) as Json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
    // A component used both ways would be emitted twice by zod-openapi ("...Output"): one name per shape.
    expect(Object.keys(doc.components.schemas).filter((name) => name.endsWith('Output'))).toEqual([]);
  });

  it('lists every route the router serves, with its method, and nothing else', () => {
    const dispatch = api.app.middleware.find((fn) => 'router' in fn) as unknown as { router: Router };
    const served = dispatch.router.stack.flatMap((layer) => {
      const path = String(layer.path);
      const template = path.replace(/:(\w+)/g, '{$1}');
      return layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${template}`);
    });
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    expect(served.length).toBeGreaterThanOrEqual(24);
    expect([...documented].sort()).toEqual([...new Set(served)].sort());
  });

  it('asks for X-Api-Key everywhere but on the open routes', () => {
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    const open = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item as Record<string, Json>)
        .filter((op) => !op.security?.some((r: Json) => 'ApiKey' in r))
        .map(() => path),
    );
    expect(open.sort()).toEqual([
      '/health',
      '/health/live',
      '/health/ready',
      '/metrics',
      '/nominatim/status',
      '/openapi.json',
    ]);
  });
});

describe('real answers match the document', () => {
  it('geocoding: lookup, forward, batch, search, autocomplete, reverse', async () => {
    await call('POST', '/lookup/street', 200, { body: { streetname: 'mekelweg', number: '8' } });
    const forward = await call('POST', '/geocode/forward', 200, { body: { streetname: 'Mekelweg', number: '8' } });
    expect(forward.body).toMatchObject({ streetname: 'Mekelweg', city: 'Delft' });
    await call('POST', '/geocode/forward', 404, { body: { streetname: 'Qxzqxzqxzqxz', number: '1' } });
    const batch = await call('POST', '/geocode/batch', 200, {
      body: {
        items: [
          { streetname: 'Mekelweg', number: '8' },
          { streetname: 'Mekelweg', number: 'abc' },
          { streetname: 'Qxzqxzqxzqxz', number: '1' },
        ],
      },
    });
    expect(batch.body.results.map((r: Json) => r.status)).toEqual([200, 400, 404]);
    const search = await call('GET', `/search?q=${encodeURIComponent('Mekelweg 8 Delft')}&size=3`, 200);
    expect(search.body[0]).toMatchObject({ streetname: 'Mekelweg', number: '8' });
    for (const q of ['Mek', 'Mekelweg 8', '2628', 'Delf']) {
      await call('GET', `/autocomplete?q=${encodeURIComponent(q)}&lat=52&lon=4.37`, 200);
    }
    const { longitude, latitude } = forward.body;
    const reverse = await call('GET', `/reverse?lat=${latitude}&lon=${longitude}&size=5&radius=100`, 200);
    expect(reverse.body.addresses[0].id).toBe(forward.body.id);
    // A point at sea: no address, every area null but the ones whose outline reaches it.
    await call('GET', '/reverse?lat=52.3&lon=3.5', 200);
    // format=geojson: the collections, as JSON and as GeoJSON.
    await call('GET', `/search?q=${encodeURIComponent('Mekelweg Delft')}&format=geojson`, 200);
    await call('GET', '/search?q=Delft&format=geojson', 200, { headers: GEOJSON });
    await call('GET', '/autocomplete?q=Delf&format=geojson', 200, { headers: GEOJSON });
    await call('GET', `/reverse?lat=${latitude}&lon=${longitude}&size=3&format=geojson`, 200, { headers: GEOJSON });
    await call('GET', '/reverse?lat=52.3&lon=3.5&format=geojson', 200);
  });

  it('addresses and buildings, JSON and GeoJSON', async () => {
    const forward = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
    const { id, building_id } = forward.body;
    await call('GET', `/addresses/${id}`, 200);
    const plain = await call('GET', `/addresses/${id}/geojson`, 200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const geo = await call('GET', `/addresses/${id}/geojson`, 200, { headers: GEOJSON });
    expect(geo.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    await call('GET', `/addresses/${id}/geojson`, 304, { headers: { 'if-none-match': plain.headers.get('etag')! } });
    const inBuilding = await call('GET', `/buildings/${building_id}/addresses`, 200);
    expect(inBuilding.body.map((a: Json) => a.id)).toContain(id);
  });

  it('the boundary tiles and their TileJSON', async () => {
    await call('GET', '/tiles/boundaries.json', 200);
    const tile = await call('GET', '/tiles/boundaries/5/16/10.mvt', 200);
    expect(tile.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    await call('GET', '/tiles/boundaries/5/16/10.mvt', 304, {
      headers: { 'if-none-match': tile.headers.get('etag')! },
    });
  });

  it('the hierarchy, as lists and as boundaries, with ids taken from the answers', async () => {
    const countries = await call('GET', '/countries?name=netherlands', 200);
    const nl = countries.body.find((c: Json) => c.country_code === 'NL');
    await call('GET', '/countries/geojson?country_code=NL&geometry=centroid', 200);
    await call('GET', '/countries/geojson?country_code=nld&simplify=5000', 200, { headers: GEOJSON });
    await call('GET', `/countries/${nl.id}/geojson?simplify=5000`, 200);
    const provinces = await call('GET', `/countries/${nl.id}/provinces?name=zuid`, 200);
    const zh = provinces.body.find((p: Json) => p.name === 'Zuid-Holland');
    await call('GET', `/countries/${nl.id}/provinces/geojson?geometry=centroid`, 200, { headers: GEOJSON });
    await call('GET', `/provinces/${zh.id}/geojson?simplify=1000`, 200);
    const municipalities = await call('GET', `/provinces/${zh.id}/municipalities?name=delft`, 200);
    expect(municipalities.body.map((m: Json) => m.local_identifier)).toContain('GM0503');
    const delftMunicipality = await call('GET', `/provinces/${zh.id}/municipalities/geojson?name=delft`, 200);
    await call('GET', `/municipalities/${delftMunicipality.body.features[0].id}/geojson?simplify=50`, 200, {
      headers: GEOJSON,
    });
    const cities = await call('GET', '/cities?name=delft', 200);
    const delft = cities.body.find((c: Json) => c.name === 'Delft');
    const city = await call('GET', `/cities/${delft.id}/geojson`, 200);
    await call('GET', `/cities/${delft.id}/geojson`, 304, { headers: { 'if-none-match': city.headers.get('etag')! } });
    const suburbs = await call('GET', `/cities/${delft.id}/suburbs/geojson?geometry=centroid`, 200);
    const forward = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
    const suburb = suburbs.body.features.find((f: Json) => f.id === forward.body.suburb_id);
    const { longitude: x, latitude: y } = forward.body;
    const bbox = [x - 0.002, y - 0.002, x + 0.002, y + 0.002].join(',');
    await call('GET', `/suburbs/${suburb.id}/geojson`, 200);
    const buildings = await call('GET', `/suburbs/${suburb.id}/buildings/geojson?bbox=${bbox}`, 200);
    expect(buildings.body.features.length).toBeGreaterThan(0);
    await call('GET', `/suburbs/${suburb.id}/buildings/geojson?geometry=centroid&bbox=${bbox}`, 200, {
      headers: GEOJSON,
    });
  });

  it('the service routes: health, metrics and the document itself', async () => {
    await call('GET', '/health', 200);
    await call('GET', '/health/live', 200);
    await call('GET', '/health/ready', 200);
    await call('GET', '/metrics', 200, { headers: { 'x-api-key': '' } });
    await call('GET', '/openapi.json', 200, { headers: { 'x-api-key': '' } });
  });

  it("the compatibility dialects, their errors in the dialect's shape", async () => {
    const [first] = (await call('GET', '/nominatim/search?q=Mekelweg%208%20Delft&format=json', 200)).body;
    await call('GET', '/nominatim/search?q=Delft&format=geocodejson', 200);
    await call('GET', '/nominatim/reverse?lat=51.995343&lon=4.3758823', 200);
    await call('GET', '/nominatim/reverse?lat=0&lon=-30', 200);
    await call('GET', `/nominatim/lookup?osm_ids=${first.place_id}`, 200);
    await call('GET', '/nominatim/status', 200, { headers: { 'x-api-key': '' } });
    await call('GET', '/nominatim/search?format=json', 400);
    await call('GET', '/nominatim/reverse?lat=0&lon=-30', 401, { headers: { 'x-api-key': '' } });
    await call('GET', '/photon/api?q=Delft&layer=city,street', 200);
    await call('GET', '/photon/reverse?lat=51.995343&lon=4.3758823&limit=2', 200);
    await call('GET', '/photon/api?q=', 400);
    await call('GET', '/pelias/v1/search?text=Mekelweg%208%20Delft', 200);
    await call('GET', '/pelias/v1/autocomplete?text=Mekelw', 200);
    await call('GET', '/pelias/v1/reverse?point.lat=51.995343&point.lon=4.3758823', 200);
    await call('GET', `/pelias/v1/place?ids=geocoder:address:${first.place_id}`, 200);
    await call('GET', '/pelias/v1/search?size=2', 400);
    await call('GET', '/pelias/v1/search/structured?address=Mekelweg%208&locality=Delft', 200);
    await call('GET', '/pelias/v1/search/structured?size=2', 400);
    await call('GET', '/photon/structured?street=Mekelweg&housenumber=8&city=Delft', 200);
    await call('GET', '/photon/structured?limit=2', 400);
  });

  it('errors: 400, 401, 404, 413, 415 in the error envelope the document describes', async () => {
    await call('GET', '/countries?nmae=delft', 400);
    await call('GET', '/reverse?lat=abc&lon=4', 400);
    await call('POST', '/lookup/street', 400, { body: { streetname: 'Mekelweg' } });
    await call('GET', '/countries', 401, { headers: { 'x-api-key': '' } });
    await call('POST', '/geocode/forward', 401, { body: {}, headers: { 'x-api-key': 'wrong' } });
    await call('GET', '/addresses/no-such-address', 404);
    await call('GET', '/cities/no-such-city/suburbs/geojson', 404);
    await call('POST', '/lookup/street', 413, {
      rawBody: JSON.stringify({ streetname: 'x'.repeat(20_000), number: '1' }),
    });
    await call('POST', '/geocode/batch', 415, {
      rawBody: 'streetname=Mekelweg',
      headers: { 'content-type': 'text/plain' },
    });
  });

  it('429 past a key rate limit and 503 without Elasticsearch, with Retry-After', async () => {
    const limited = await startTestApi({ env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '1' }, now: () => 0 });
    try {
      await call('GET', '/cities?name=delft', 200, {}, limited);
      await call('GET', '/cities?name=delft', 429, {}, limited);
    } finally {
      await limited.close();
    }
    // Nothing listens on port 9 of loopback: every Elasticsearch request is refused at once.
    const down = await startTestApi({ elasticsearchUrl: 'http://127.0.0.1:9', requestTimeoutMs: 2000 });
    try {
      await call('POST', '/geocode/forward', 503, { body: { streetname: 'Mekelweg', number: '8' } }, down);
      await call('GET', '/health', 503, {}, down);
      await call('GET', '/health/ready', 503, {}, down);
    } finally {
      await down.close();
    }
  });

  it('the schemas are strict: an answer with a field missing, renamed or of another type does not validate', async () => {
    const forward = await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8' } });
    const validate = bodySchema('POST', '/geocode/forward', 200, 'application/json');
    expect(validate(forward.body)).toBe(true);
    const { city, ...withoutCity } = forward.body;
    expect(validate(withoutCity)).toBe(false);
    expect(validate({ ...withoutCity, town: city })).toBe(false);
    expect(validate({ ...forward.body, latitude: String(forward.body.latitude) })).toBe(false);
    const error = bodySchema('GET', '/addresses/{id}', 404, 'application/json');
    expect(error({ error: { code: 'not_found', message: 'No such address' } })).toBe(true);
    expect(error({ message: 'No such address' })).toBe(false);
  });

  it('every operation of the document was checked against a real answer above', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    expect(operations.filter((op) => !answered.has(op))).toEqual([]);
  });
});

describe('/docs', () => {
  const CONTENT_TYPES: Record<string, RegExp> = {
    js: /^text\/javascript/,
    css: /^text\/css/,
    png: /^image\/png/,
  };

  it('redirects /docs to /docs/, and serves the page without a key', async () => {
    const redirect = await fetch(`${api.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const page = await fetch(`${api.url}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('loads only local assets, each answering 200 with its content type, and no inline script', async () => {
    const html = await (await fetch(`${api.url}/docs/`)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(inline!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
    const assets = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(?:[a-z]+:)?\/\//i);
      const res = await fetch(new URL(asset, `${api.url}/docs/`));
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(CONTENT_TYPES[asset.split('.').pop()!]!);
    }
    // The page's script points Swagger UI at this service's own document.
    const init = await (await fetch(`${api.url}/docs/init.js`)).text();
    expect(init).toMatch(/'\.\.\/openapi\.json'/);
    expect(init).not.toMatch(/https?:\/\//);
  });
});
