/**
 * The boundaries as vector tiles against the real sample: every tile of zooms 0-10 over the Netherlands and Belgium
 * decodes as a map client reads it, layers and properties are those TileJSON declares, shapes keep their area at the
 * last zoom and join across tile edges, and the HTTP rules (204, 400, ETag, the key in the query string) hold.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUFFER, EXTENT, LABEL_LAYER, LEVEL_LAYERS, MAX_ZOOM } from '../../../../../src/features/tiles/zoomTable.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import {
  clipRing,
  decodeTile,
  distanceToRings,
  featuresOf,
  insideRings,
  ringArea,
  tilesOver,
  worldXY,
  type XY,
} from '../../../../support/vectorTiles.js';

let api: TestApi;
let delft: { id: string; geometry: Polygon | MultiPolygon };

/** The Netherlands and Belgium. */
const NL_BE: [number, number, number, number] = [2.5, 49.45, 7.25, 53.6];
const MVT = 'application/vnd.mapbox-vector-tile';

async function tile(z: number, x: number, y: number, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}/tiles/boundaries/${z}/${x}/${y}.mvt`, {
    headers: { 'x-api-key': TEST_API_KEY, ...headers },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

beforeAll(async () => {
  api = await startTestApi();
  const nl = (await api.call('GET', '/countries?country_code=NL')).body[0];
  const zh = (await api.call('GET', `/countries/${nl.id}/provinces?name=Zuid-Holland`)).body[0];
  const municipality = (await api.call('GET', `/provinces/${zh.id}/municipalities?name=Delft`)).body[0];
  const shape = await api.call('GET', `/municipalities/${municipality.id}/geojson`);
  delft = { id: municipality.id, geometry: shape.body.features[0].geometry };
});

afterAll(async () => {
  await api?.close();
});

/** The polygons (rings in world units at zoom z) of the feature with this id in a decoded tile's layer. */
function ringsOf(bytes: Uint8Array, layer: string, id: string, z: number, x: number, y: number): XY[][] {
  if (bytes.length === 0) return [];
  const features = featuresOf(decodeTile(bytes), layer).filter((f) => f.properties.id === id);
  return features.flatMap((f) => {
    const scale = EXTENT / f.extent;
    return f.loadGeometry().map((ring) => ring.map((p): XY => [x * EXTENT + p.x * scale, y * EXTENT + p.y * scale]));
  });
}

const polygonsOf = (g: Polygon | MultiPolygon): Position[][][] =>
  g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

describe('GET /tiles/boundaries/{z}/{x}/{y}.mvt', () => {
  it('decodes every tile of zooms 0-10 over NL+BE, each layer from its zoom, with the declared properties', async () => {
    const tilejson = (await api.call('GET', '/tiles/boundaries.json')).body;
    const declared = new Map<string, { fields: Record<string, string>; minzoom: number }>(
      tilejson.vector_layers.map((l: { id: string }) => [l.id, l]),
    );
    const seen = new Set<string>();
    let tiles = 0;
    let decodedTiles = 0;
    for (let z = 0; z <= 10; z++) {
      for (const { x, y } of tilesOver(NL_BE, z)) {
        const res = await tile(z, x, y);
        tiles++;
        // The North Sea's tiles hold nothing from zoom 6 or so.
        if (res.status === 204) continue;
        expect(res.status, `${z}/${x}/${y}`).toBe(200);
        expect(res.headers.get('content-type')).toBe(MVT);
        decodedTiles++;
        const decoded = decodeTile(res.bytes);
        for (const [name, layer] of Object.entries(decoded.layers)) {
          const declaration = declared.get(name);
          expect(declaration, name).toBeDefined();
          expect(z, `${name} at ${z}`).toBeGreaterThanOrEqual(declaration!.minzoom);
          expect(layer.extent).toBe(EXTENT);
          seen.add(`${name}@${z}`);
          for (const feature of featuresOf(decoded, name)) {
            const keys = Object.keys(feature.properties);
            for (const key of keys) expect(declaration!.fields, `${name}.${key}`).toHaveProperty([key]);
            for (const key of ['id', 'name', 'local_identifier', 'level']) expect(keys, name).toContain(key);
            expect(feature.type).toBe(name === LABEL_LAYER ? 1 : 3);
            // MVT 2.1, 4.3.4.4: an exterior ring (each polygon's first) has a positive surveyor's area, y down.
            if (feature.type === 3) expect(surveyorArea(feature.loadGeometry()[0]!), name).toBeGreaterThan(0);
          }
        }
      }
    }
    // Zooms 0-10 over NL+BE: every tile (a few hundred), fully, not sampled.
    expect(tiles).toBeGreaterThan(400);
    expect(decodedTiles).toBeGreaterThan(tiles / 2);
    for (const expected of ['countries@0', 'provinces@4', 'municipalities@8', 'cities@10', 'labels@0']) {
      expect(seen, expected).toContain(expected);
    }
    for (const early of ['provinces@3', 'municipalities@7', 'cities@8', 'suburbs@10', 'buildings@10']) {
      expect(seen, early).not.toContain(early);
    }
  });

  it('carries the names per language and a label point inside each area', async () => {
    // Brussels at zoom 10: the bilingual municipalities, with their label points.
    const [{ x, y }] = tilesOver([4.3517, 50.8466, 4.3517, 50.8466], 10) as [{ x: number; y: number }];
    const decoded = decodeTile((await tile(10, x, y)).bytes);
    const municipalities = featuresOf(decoded, 'municipalities');
    const elsene = municipalities.find((f) => f.properties['name:fr'] === 'Ixelles');
    expect(elsene?.properties).toMatchObject({ 'name:nl': 'Elsene', level: 'municipality' });
    const label = featuresOf(decoded, LABEL_LAYER).find((f) => f.properties.id === elsene!.properties.id);
    expect(label?.properties).toMatchObject({ name: elsene!.properties.name, level: 'municipality' });
    const point = label!.loadGeometry()[0]![0]!;
    const rings = elsene!.loadGeometry().map((ring) => ring.map((p): XY => [p.x, p.y]));
    expect(insideRings(rings, [point.x, point.y])).toBe(true);
  });

  it('keeps a municipality within 1 % of its GeoJSON area at the last zoom', async () => {
    const z = MAX_ZOOM;
    const lonLat = polygonsOf(delft.geometry).flat(2);
    const box: [number, number, number, number] = [
      Math.min(...lonLat.map((p) => p[0]!)),
      Math.min(...lonLat.map((p) => p[1]!)),
      Math.max(...lonLat.map((p) => p[0]!)),
      Math.max(...lonLat.map((p) => p[1]!)),
    ];
    let tiled = 0;
    let buildings = 0;
    for (const { x, y } of tilesOver(box, z)) {
      const res = await tile(z, x, y);
      if (res.status === 204) continue;
      buildings += featuresOf(decodeTile(res.bytes), 'buildings').length;
      // Each tile's share: its polygons cut to the tile's own square (the buffer belongs to the neighbours).
      for (const ring of ringsOf(res.bytes, 'municipalities', delft.id, z, x, y)) {
        tiled += ringArea(clipToTile(ring, x, y));
      }
    }
    const source = polygonsOf(delft.geometry)
      .flat()
      .reduce((sum, ring) => sum + ringArea(ring.map((p) => worldXY(p, z, EXTENT))), 0);
    expect(Math.abs(tiled)).toBeGreaterThan(0);
    expect(Math.abs(Math.abs(tiled) - Math.abs(source)) / Math.abs(source)).toBeLessThan(0.01);
    // Delft's buildings are in the zoom-14 tiles.
    expect(buildings).toBeGreaterThan(100);
  });

  it('joins across tile edges: four tiles around a corner agree along their shared edges', async () => {
    const z = 13;
    const rings = polygonsOf(delft.geometry).flat();
    // A corner of the zoom-13 grid inside Delft, and the four tiles that meet there.
    const world = rings.map((ring) => ring.map((p) => worldXY(p, z, EXTENT)));
    const xs = world.flat().map((p) => p[0]);
    const ys = world.flat().map((p) => p[1]);
    let corner: XY | undefined;
    for (let cx = Math.ceil(Math.min(...xs) / EXTENT); cx * EXTENT <= Math.max(...xs) && !corner; cx++) {
      for (let cy = Math.ceil(Math.min(...ys) / EXTENT); cy * EXTENT <= Math.max(...ys) && !corner; cy++) {
        if (insideRings(world, [cx * EXTENT, cy * EXTENT])) corner = [cx, cy];
      }
    }
    expect(corner, 'a grid corner inside Delft').toBeDefined();
    const [cx, cy] = corner!;
    const parts = new Map<string, XY[][]>();
    for (const [x, y] of [
      [cx - 1, cy - 1],
      [cx, cy - 1],
      [cx - 1, cy],
      [cx, cy],
    ] as const) {
      const res = await tile(z, x, y);
      parts.set(`${x}/${y}`, ringsOf(res.bytes, 'municipalities', delft.id, z, x, y));
    }
    const inTile = (x: number, y: number, p: XY) => insideRings(parts.get(`${x}/${y}`)!, p);
    const near = (x: number, y: number, p: XY) => distanceToRings(parts.get(`${x}/${y}`)!, p) <= 2;
    let compared = 0;
    // Points on each shared edge and up to half the buffer past it: both tiles hold them (one in its buffer).
    for (let t = -EXTENT; t < EXTENT; t += 16) {
      for (const offset of [0, -BUFFER / 2, BUFFER / 2]) {
        const vertical: XY = [cx * EXTENT + offset, cy * EXTENT + t];
        const [top, bottom] = [cy - 1, cy];
        const row = t < 0 ? top : bottom;
        const horizontal: XY = [cx * EXTENT + t, cy * EXTENT + offset];
        const column = t < 0 ? cx - 1 : cx;
        for (const [a, b, p] of [
          [[cx - 1, row], [cx, row], vertical],
          [[column, top], [column, bottom], horizontal],
        ] as [[number, number], [number, number], XY][]) {
          if (near(...a, p) || near(...b, p)) continue;
          expect(inTile(...a, p), `${p} in ${a} and ${b}`).toBe(inTile(...b, p));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('answers 204 for a tile that holds nothing, with its validators', async () => {
    // The middle of the South Pacific at zoom 8.
    const [{ x, y }] = tilesOver([-140, -40, -140, -40], 8) as [{ x: number; y: number }];
    const res = await tile(8, x, y);
    expect(res.status).toBe(204);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('answers 400 naming the parameter for a tile outside the pyramid', async () => {
    for (const [path, parameter] of [
      ['15/0/0', 'path.z'],
      ['-1/0/0', 'path.z'],
      ['a/0/0', 'path.z'],
      ['3/8/0', 'path.x'],
      ['3/0/8', 'path.y'],
      ['0/0/1', 'path.y'],
    ] as const) {
      const res = await api.call('GET', `/tiles/boundaries/${path}.mvt`);
      expect(res.status, path).toBe(400);
      expect(
        res.body.error.details.map((d: { path: string }) => d.path),
        path,
      ).toContain(parameter);
    }
  });

  it('is conditional and compressed like the GeoJSON answers', async () => {
    const [{ x, y }] = tilesOver([5.3, 52.1, 5.3, 52.1], 8) as [{ x: number; y: number }];
    const first = await tile(8, x, y, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.bytes.length).toBeGreaterThan(1024);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(first.headers.get('cache-control')).toBe('private, max-age=60');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const again = await tile(8, x, y, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    // The body cache's copy: the same bytes.
    const cached = await tile(8, x, y, { 'accept-encoding': 'gzip' });
    expect(Buffer.from(cached.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it('takes the key in the query string, which leaves it out of the ETag', async () => {
    const path = '/tiles/boundaries/5/16/10.mvt';
    const byHeader = await fetch(`${api.url}${path}`, { headers: { 'x-api-key': TEST_API_KEY } });
    for (const parameter of ['api_key', 'key']) {
      const res = await fetch(`${api.url}${path}?${parameter}=${TEST_API_KEY}`);
      expect(res.status, parameter).toBe(200);
      expect(res.headers.get('etag')).toBe(byHeader.headers.get('etag'));
    }
    expect((await fetch(`${api.url}${path}`)).status).toBe(401);
    expect((await fetch(`${api.url}${path}?api_key=wrong-key`)).status).toBe(401);
  });
});

describe('GET /tiles/boundaries.json', () => {
  it('is TileJSON 3.0.0 with every layer and zoom of the zoom table', async () => {
    const res = await api.call('GET', '/tiles/boundaries.json');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ tilejson: '3.0.0', minzoom: 0, maxzoom: MAX_ZOOM, scheme: 'xyz' });
    expect(body.tiles).toEqual([`${api.url}/tiles/boundaries/{z}/{x}/{y}.mvt`]);
    // The sources of what the tiles draw (the sample's manifest): areas and buildings, not the addresses.
    expect(body.attribution).toBe(
      [
        'Made with Natural Earth (public domain)',
        '© CBS / Kadaster, CC BY 4.0',
        'Statbel (Directorate-general Statistics - Statistics Belgium)',
        '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>, ODbL 1.0',
        // Brussels' cities are derived from its addresses.
        'BeST Address / UrbIS (BOSA)',
      ].join(' · '),
    );
    // The sample's countries cover the world (up to web mercator's edge).
    expect(body.bounds[0]).toBeLessThan(-170);
    expect(body.bounds[2]).toBeGreaterThan(170);
    expect(body.bounds[3]).toBeLessThanOrEqual(85.0511);
    for (const { layer, minzoom } of LEVEL_LAYERS) {
      const declared = body.vector_layers.find((l: { id: string }) => l.id === layer);
      expect(declared, layer).toMatchObject({ minzoom, maxzoom: MAX_ZOOM });
      expect(Object.keys(declared.fields)).toEqual(expect.arrayContaining(['id', 'local_identifier', 'level']));
    }
    const labels = body.vector_layers.find((l: { id: string }) => l.id === LABEL_LAYER);
    expect(Object.keys(labels.fields)).toEqual(
      expect.arrayContaining(['id', 'name', 'name:nl', 'name:fr', 'name:de', 'local_identifier', 'level']),
    );
  });

  it('puts a key given in the query string into the tile URL, and none given as the header', async () => {
    const res = await fetch(`${api.url}/tiles/boundaries.json?api_key=${TEST_API_KEY}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { tiles: string[] };
    expect(body.tiles).toEqual([`${api.url}/tiles/boundaries/{z}/{x}/{y}.mvt?api_key=${TEST_API_KEY}`]);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect((await fetch(`${api.url}/tiles/boundaries.json`)).status).toBe(401);
    // The URL works as it stands.
    const url = (body.tiles[0] as string).replace('{z}', '5').replace('{x}', '16').replace('{y}', '10');
    expect((await fetch(url)).status).toBe(200);
  });

  it("writes the tile URL as a client outside a trusted proxy addresses it, the proxy's path prefix included", async () => {
    const proxied = {
      'X-Api-Key': TEST_API_KEY,
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'geo.example.org',
      'X-Forwarded-Prefix': '/geo/',
    };
    const tilesOf = async (base: string, headers: Record<string, string>) =>
      ((await (await fetch(`${base}/tiles/boundaries.json`, { headers })).json()) as { tiles: string[] }).tiles;
    const behind = await startTestApi({ env: { TRUST_PROXY: 'true' } });
    try {
      expect(await tilesOf(behind.url, proxied)).toEqual([
        'https://geo.example.org/geo/tiles/boundaries/{z}/{x}/{y}.mvt',
      ]);
      // A prefix that is not a plain path is no prefix.
      for (const prefix of ['/geo/../admin', 'geo', '/a b', '/"><script>'])
        expect(await tilesOf(behind.url, { ...proxied, 'X-Forwarded-Prefix': prefix })).toEqual([
          'https://geo.example.org/tiles/boundaries/{z}/{x}/{y}.mvt',
        ]);
    } finally {
      await behind.close();
    }
    // Without TRUST_PROXY the forwarded headers are a client's own words: ignored.
    expect(await tilesOf(api.url, proxied)).toEqual([`${api.url}/tiles/boundaries/{z}/{x}/{y}.mvt`]);
  });
});

function surveyorArea(ring: readonly { x: number; y: number }[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum / 2;
}

/** A ring in world units cut to the square of tile x/y. */
function clipToTile(ring: XY[], x: number, y: number): XY[] {
  const local = ring.map(([wx, wy]): XY => [wx - x * EXTENT, wy - y * EXTENT]);
  return clipRing(local, 0, EXTENT);
}
