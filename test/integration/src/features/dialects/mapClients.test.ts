/**
 * What map clients rely on, against the real Elasticsearch with the sample: compression, ETag / 304 (and its
 * change when a new index generation goes live), CORS, the bbox viewport, simplify, content negotiation and
 * strict query parameters.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENERATION_TTL_MS } from '../../../../../src/indexes/generations.js';
import { FeatureCollection } from '../../../../../src/schemas/responses.js';
import { SampleDeployment } from '../../../../support/sampleDeployment.js';
import { startTestApi, type TestApi, type TestResponse } from '../../../../support/api.js';
import { rawGet } from '../../../../support/rawGet.js';

let api: TestApi;
const ids: Record<string, string> = {};

function featuresOf(res: TestResponse) {
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return FeatureCollection.parse(res.body).features;
}

/** Every ring of a Polygon or MultiPolygon. */
function ringsOf(geometry: { type: string; coordinates?: unknown }): Position[][] {
  if (geometry.type === 'Polygon') return geometry.coordinates as Position[][];
  if (geometry.type === 'MultiPolygon') return (geometry.coordinates as Position[][][]).flat();
  return [];
}

const vertexCount = (features: { geometry: any }[]) =>
  features.reduce((n, f) => n + ringsOf(f.geometry).reduce((m, r) => m + r.length, 0), 0);

type Box = [number, number, number, number];
const intersects = (a: Box, b: Box) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
function envelope(rings: Position[][]): Box {
  const pts = rings.flat();
  const lons = pts.map((p) => p[0]!);
  const lats = pts.map((p) => p[1]!);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

beforeAll(async () => {
  api = await startTestApi();
  const [nl] = (await api.call('GET', '/countries?country_code=NL')).body;
  ids.nl = nl.id;
  ids.zuidHolland = (await api.call('GET', `/countries/${ids.nl}/provinces?name=zuid-holland`)).body[0].id;
  ids.delft = (await api.call('GET', '/cities?name=delft')).body.find((c: any) => c.name === 'Delft').id;
  const wippolder = await api.call('GET', `/cities/${ids.delft}/suburbs/geojson?name=wippolder&geometry=centroid`);
  ids.wippolder = wippolder.body.features[0].id;
  ids.address = (await api.call('POST', '/geocode/forward', { body: { streetname: 'mekelweg', number: '8' } })).body.id;
});

afterAll(async () => {
  await api?.close();
});

describe('compression', () => {
  it('gzip and brotli decode to the same JSON as the plain answer, streamed collections included', async () => {
    const path = `${api.url}/countries/geojson?geometry=centroid`;
    const plain = await rawGet(path, { 'accept-encoding': 'identity' });
    const gzip = await rawGet(path, { 'accept-encoding': 'gzip' });
    const br = await rawGet(path, { 'accept-encoding': 'br, gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(gzip.headers.vary)).toMatch(/Accept-Encoding/);
    const json = JSON.parse(plain.body.toString());
    expect(json.features.length).toBeGreaterThan(200);
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(json);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(json);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
  });

  it("sends a small answer compressed in one piece, with its length (a search box's keystroke)", async () => {
    const path = `${api.url}/autocomplete?q=${encodeURIComponent('van')}&size=20`;
    const plain = await rawGet(path, { 'accept-encoding': 'identity' });
    expect(plain.body.length).toBeGreaterThan(1024);
    // A browser's header: either encoding may be chosen, as for the answers kept in the body cache.
    for (const accepted of ['gzip, deflate, br, zstd', 'br', 'gzip']) {
      const packed = await rawGet(path, { 'accept-encoding': accepted });
      const encoding = String(packed.headers['content-encoding']);
      expect(['br', 'gzip']).toContain(encoding);
      if (!accepted.includes(',')) expect(encoding).toBe(accepted);
      // Not a chunked stream: the length is known before the body, as for an uncompressed answer.
      expect(packed.headers['transfer-encoding']).toBeUndefined();
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      const text = encoding === 'br' ? brotliDecompressSync(packed.body) : gunzipSync(packed.body);
      expect(JSON.parse(text.toString())).toEqual(JSON.parse(plain.body.toString()));
      expect(String(packed.headers.vary)).toMatch(/Accept-Encoding/);
    }
  });

  it('leaves answers under 1 KiB alone', async () => {
    const small = await rawGet(`${api.url}/addresses/${ids.address}`, { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('content type', () => {
  it('is application/json by default and application/geo+json when Accept asks for it', async () => {
    for (const path of [
      `/countries/${ids.nl}/geojson?geometry=centroid`,
      `/cities/${ids.delft}/suburbs/geojson?geometry=centroid`,
      `/addresses/${ids.address}/geojson`,
    ]) {
      const plain = await api.call('GET', path);
      const wildcard = await api.call('GET', path, { headers: { accept: '*/*' } });
      const geo = await api.call('GET', path, { headers: { accept: 'application/geo+json' } });
      const preferred = await api.call('GET', path, {
        headers: { accept: 'application/geo+json, application/json;q=0.5' },
      });
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      expect(wildcard.headers.get('content-type')).toMatch(/^application\/json/);
      expect(geo.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(preferred.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(geo.body).toEqual(plain.body);
    }
  });
});

describe('ETag and Cache-Control', () => {
  const path = () => `/countries/${ids.nl}/provinces/geojson?geometry=centroid&name=holland`;

  it('answers 304 to a matching If-None-Match, whatever the query order', async () => {
    const first = await api.call('GET', path());
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=60');
    const again = await api.call('GET', path(), { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    const reordered = `/countries/${ids.nl}/provinces/geojson?name=holland&geometry=centroid`;
    expect((await api.call('GET', reordered, { headers: { 'if-none-match': tag } })).status).toBe(304);
  });

  it('differs by request and by media type, and is on hierarchy lists too', async () => {
    const base = (await api.call('GET', path())).headers.get('etag');
    const other = (await api.call('GET', `/countries/${ids.nl}/provinces/geojson?geometry=centroid`)).headers;
    const geo = (await api.call('GET', path(), { headers: { accept: 'application/geo+json' } })).headers;
    expect(other.get('etag')).not.toBe(base);
    expect(geo.get('etag')).not.toBe(base);
    const list = await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities`);
    const tag = list.headers.get('etag')!;
    expect(tag).toBeTruthy();
    const again = await api.call('GET', `/provinces/${ids.zuidHolland}/municipalities`, {
      headers: { 'if-none-match': tag },
    });
    expect(again.status).toBe(304);
  });

  it('is not sent with errors', async () => {
    const res = await api.call('GET', '/provinces/unknown/geojson');
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
  });

  it('changes when a new generation goes live behind the alias', async () => {
    // A deployment of its own whose aliases point at the sample's indexes; "reindexing" its areas copies
    // the Dutch records into a new generation and swaps the alias, as the indexer does.
    const deployment = await SampleDeployment.over(api.client, inject('samplePrefix'), 'etag');
    const own = await startTestApi({ indexPrefix: deployment.prefix });
    try {
      const url = `/countries/${ids.nl}/geojson?geometry=centroid`;
      const before = await own.call('GET', url);
      const tag = before.headers.get('etag')!;
      expect((await own.call('GET', url, { headers: { 'if-none-match': tag } })).status).toBe(304);

      await deployment.swapAreas({ query: { term: { country_code: 'NL' } }, size: 1000 });
      await new Promise((resolve) => setTimeout(resolve, GENERATION_TTL_MS + 100));

      const after = await own.call('GET', url, { headers: { 'if-none-match': tag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(tag);
      expect(after.body).toEqual(before.body);
    } finally {
      await own.close();
      await deployment.remove();
    }
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => ({
    origin,
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'x-api-key',
    'x-api-key': '',
  });

  it('answers a preflight without a key and exposes the headers a map client reads', async () => {
    const res = await api.call('OPTIONS', '/countries/geojson', { headers: preflight('https://maps.example') });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Api-Key/i);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/GET/);
    const get = await api.call('GET', `/countries/${ids.nl}/geojson?geometry=centroid`, {
      headers: { origin: 'https://maps.example' },
    });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toMatch(/ETag.*X-Request-Id.*Retry-After/);
  });

  it('allows only the configured origins', async () => {
    const strict = await startTestApi({ corsOrigins: ['https://maps.example'] });
    try {
      const allowed = await strict.call('OPTIONS', '/cities', { headers: preflight('https://maps.example') });
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://maps.example');
      const refused = await strict.call('OPTIONS', '/cities', { headers: preflight('https://evil.example') });
      expect(refused.status).toBe(204);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const get = await strict.call('GET', '/cities?name=delft', { headers: { origin: 'https://evil.example' } });
      expect(get.status).toBe(200);
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe('bbox viewport', () => {
  const delftBox: [number, number, number, number] = [4.34, 51.99, 4.37, 52.01];

  it('narrows country and municipality collections to what intersects the box', async () => {
    const all = featuresOf(await api.call('GET', '/countries/geojson?geometry=centroid'));
    const benelux = featuresOf(await api.call('GET', '/countries/geojson?geometry=centroid&bbox=3,50,7,53.5'));
    expect(benelux.length).toBeGreaterThan(2);
    expect(benelux.length).toBeLessThan(all.length / 10);
    expect(benelux.map((f) => f.properties.country_code)).toEqual(expect.arrayContaining(['NL', 'BE']));
    for (const f of benelux) expect(intersects(f.properties.bbox as Box, [3, 50, 7, 53.5])).toBe(true);

    const list = (await api.call('GET', `/countries?bbox=3,50,7,53.5`)).body;
    expect(list.map((c: any) => c.id).sort()).toEqual(benelux.map((f) => f.id).sort());

    const muni = `/provinces/${ids.zuidHolland}/municipalities`;
    const allMuni = (await api.call('GET', muni)).body;
    const near = featuresOf(await api.call('GET', `${muni}/geojson?bbox=${delftBox.join(',')}`));
    expect(near.length).toBeGreaterThan(0);
    expect(near.length).toBeLessThan(allMuni.length);
    expect(near.map((f) => f.properties.name)).toContain('Delft');
    for (const f of near) expect(intersects(envelope(ringsOf(f.geometry)), delftBox)).toBe(true);
    expect((await api.call('GET', `${muni}?bbox=${delftBox.join(',')}`)).body).toHaveLength(near.length);
  });

  it('narrows a suburb’s buildings', async () => {
    const path = `/suburbs/${ids.wippolder}/buildings/geojson`;
    const all = featuresOf(await api.call('GET', path));
    const [minLon, minLat, maxLon, maxLat] = envelope(all.flatMap((f) => ringsOf(f.geometry)));
    const corner: Box = [minLon, minLat, (minLon + maxLon) / 2, (minLat + maxLat) / 2];
    const some = featuresOf(await api.call('GET', `${path}?bbox=${corner.join(',')}`));
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    for (const f of some) expect(intersects(envelope(ringsOf(f.geometry)), corner)).toBe(true);
  });

  it.each(['1,2,3', '1,2,3,4,5', 'a,b,c,d', '-200,0,0,10', '0,-95,10,10', '10,0,5,10'])(
    'refuses bbox=%s naming the parameter',
    async (bbox) => {
      const res = await api.call('GET', `/countries/geojson?bbox=${bbox}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe('query.bbox');
    },
  );
});

describe('simplify', () => {
  it('returns fewer vertices in valid closed rings, fewer still with a larger tolerance', async () => {
    for (const path of [`/provinces/${ids.zuidHolland}/geojson`, `/countries/geojson?country_code=NL`]) {
      const sep = path.includes('?') ? '&' : '?';
      const full = featuresOf(await api.call('GET', path));
      const light = featuresOf(await api.call('GET', `${path}${sep}simplify=200`));
      const lighter = featuresOf(await api.call('GET', `${path}${sep}simplify=2000`));
      expect(light.map((f) => f.id)).toEqual(full.map((f) => f.id));
      expect(vertexCount(light)).toBeLessThan(vertexCount(full));
      expect(vertexCount(lighter)).toBeLessThan(vertexCount(light));
      for (const f of [...light, ...lighter]) {
        expect(['Polygon', 'MultiPolygon']).toContain(f.geometry.type);
        for (const ring of ringsOf(f.geometry)) {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
        }
      }
    }
  });

  it('refuses simplify with centroids, out of range, or where it does not apply', async () => {
    const bad = [
      `/provinces/${ids.zuidHolland}/geojson?simplify=500&geometry=centroid`,
      `/provinces/${ids.zuidHolland}/geojson?simplify=0`,
      `/provinces/${ids.zuidHolland}/geojson?simplify=abc`,
      `/suburbs/${ids.wippolder}/buildings/geojson?simplify=5`,
      `/cities?simplify=5`,
    ];
    for (const path of bad) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.details[0].path).toBe('query.simplify');
    }
  });
});

describe('query parameters', () => {
  it.each([
    ['/cities?nmae=delft', 'query.nmae'],
    ['/cities?name=delft&name=delfgauw', 'query.name'],
    ['/cities?name[]=delft', 'query.name[]'],
    ['/cities?name=*', 'query.name'],
    ['/cities?name=-', 'query.name'],
    ['/countries/geojson?name=%20.%20', 'query.name'],
    ['/countries?geometry=centroid', 'query.geometry'],
  ])('%s is a 400 naming %s', async (path, param) => {
    const res = await api.call('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.map((d: any) => d.path)).toContain(param);
  });

  it('checks the address endpoints too', async () => {
    const res = await api.call('GET', `/addresses/${ids.address}/geojson?x=1`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ path: 'query.x', message: 'unknown parameter' });
  });
});
