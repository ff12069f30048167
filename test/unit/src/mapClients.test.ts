/** Pure parts of the map-client features: viewport parsing, simplification, conditional requests, CORS origins. */
import type { Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/service.js';
import { simplifyFrame, simplifyShape, isUsableRing } from '../../../src/geojson/simplify.js';
import { entityTag, matchesIfNoneMatch, normalisedRequest } from '../../../src/http/conditional.js';
import { allowedOrigin } from '../../../src/http/cors.js';
import { parseViewport, viewportClause } from '../../../src/geometry/viewport.js';

describe('parseViewport', () => {
  it('reads minLon,minLat,maxLon,maxLat', () => {
    expect(parseViewport('4.3,51.9,4.4,52.05')).toEqual({ minLon: 4.3, minLat: 51.9, maxLon: 4.4, maxLat: 52.05 });
    expect(parseViewport('-180,-90,180,90')).toEqual({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 });
  });

  it.each([
    ['4.3,51.9,4.4', 'four'],
    ['4.3,51.9,4.4,52,1', 'four'],
    ['a,b,c,d', 'four'],
    ['4.3,,4.4,52', 'four'],
    ['1e1,0,20,1', 'four'],
    ['-181,0,10,10', 'longitudes'],
    ['0,-91,10,10', 'latitudes'],
    ['10,0,5,10', 'minimum'],
    ['0,10,5,5', 'minimum'],
  ])('refuses %s', (text, reason) => {
    const parsed = parseViewport(text);
    expect('error' in parsed && parsed.error).toContain(reason);
  });

  it('filters by envelope intersection', () => {
    const clauses = viewportClause({ minLon: 1, minLat: 2, maxLon: 3, maxLat: 4 });
    expect(clauses).toContainEqual({ range: { 'bbox.min_lon': { lte: 3 } } });
    expect(clauses).toContainEqual({ range: { 'bbox.max_lat': { gte: 2 } } });
  });
});

/** A circle of radius `deg` degrees of latitude, `n` vertices, closed. */
function circle(lon: number, lat: number, deg: number, n: number): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    ring.push([lon + (deg * Math.cos(a)) / Math.cos((lat * Math.PI) / 180), lat + deg * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return ring;
}

describe('simplifyShape', () => {
  it('converts metres to a latitude-degree tolerance and squeezes longitudes by cos(latitude)', () => {
    expect(simplifyFrame(111_320, 0)).toEqual({ tolerance: 1, lonScale: 1 });
    expect(simplifyFrame(1113.2, 60).tolerance).toBeCloseTo(0.01);
    expect(simplifyFrame(1, 60).lonScale).toBeCloseTo(0.5);
    expect(simplifyFrame(1, 90).lonScale).toBe(0.01);
  });

  it('keeps fewer of the original vertices in valid closed rings', () => {
    const shell = circle(4.36, 52, 0.05, 400);
    const hole = circle(4.36, 52, 0.01, 100);
    const out = simplifyShape<Polygon>({ type: 'Polygon', coordinates: [shell, hole] }, 100, 52);
    expect(out.coordinates).toHaveLength(2);
    expect(out.coordinates[0]!.length).toBeLessThan(shell.length);
    for (const ring of out.coordinates) {
      expect(isUsableRing(ring)).toBe(true);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
    }
    expect(out.coordinates[0]!.every((p) => shell.includes(p))).toBe(true);
  });

  it('is as exact east-west as north-south at high latitude', () => {
    // A 100 m tolerance on a ~5.5 km circle at 60°N keeps a polygon with a similar count along both axes.
    const out = simplifyShape<Polygon>({ type: 'Polygon', coordinates: [circle(10, 60, 0.05, 720)] }, 100, 60);
    const ring = out.coordinates[0]!;
    const lons = ring.map((p) => p[0]!);
    const lats = ring.map((p) => p[1]!);
    const width = ((Math.max(...lons) - Math.min(...lons)) * Math.cos(Math.PI / 3)) / 0.1;
    const height = (Math.max(...lats) - Math.min(...lats)) / 0.1;
    expect(width).toBeCloseTo(height, 1);
  });

  it('drops holes and islets that collapse, and never the whole feature', () => {
    const main = circle(4.36, 52, 0.05, 400);
    const islet = circle(4.5, 52, 0.0001, 20);
    const tinyHole = circle(4.36, 52, 0.0001, 20);
    const multi = simplifyShape({ type: 'MultiPolygon', coordinates: [[main, tinyHole], [islet]] }, 200, 52);
    expect(multi.coordinates).toHaveLength(1);
    expect(multi.coordinates[0]).toHaveLength(1);
  });

  it('simplifies a feature that would collapse whole at a finer tolerance, not returning its full detail', () => {
    // About 11 m across: every ring collapses at 200 m.
    const islet = circle(4.5, 52, 0.0001, 40);
    const lone = { type: 'Polygon' as const, coordinates: [islet] };
    const simplified = simplifyShape(lone, 200, 52);
    expect(simplified.type).toBe('Polygon');
    expect(simplified.coordinates[0]!.length).toBeGreaterThanOrEqual(4);
    expect(simplified.coordinates[0]!.length).toBeLessThan(islet.length);
    // A shape too small even for the finest try keeps its original geometry.
    const speck = { type: 'Polygon' as const, coordinates: [circle(4.5, 52, 0.0000001, 8)] };
    expect(simplifyShape(speck, 100_000, 52)).toBe(speck);
  });
});

describe('conditional requests', () => {
  it('normalises the query order', () => {
    expect(normalisedRequest('/countries/geojson', 'name=a&bbox=1,2,3,4')).toBe(
      normalisedRequest('/countries/geojson', 'bbox=1,2,3,4&name=a'),
    );
    expect(normalisedRequest('/cities', '')).toBe('/cities');
  });

  it('derives weak tags that change with any part', () => {
    const tag = entityTag(['areas-1', '/countries/geojson', 'application/json']);
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    expect(entityTag(['areas-2', '/countries/geojson', 'application/json'])).not.toBe(tag);
  });

  it('compares If-None-Match weakly, in lists and with *', () => {
    const tag = 'W/"abc"';
    expect(matchesIfNoneMatch('W/"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('"x", W/"abc"', tag)).toBe(true);
    // `*` is decided by whether the resource exists (respondCached), not by comparing tags.
    expect(matchesIfNoneMatch('*', tag)).toBe(false);
    expect(matchesIfNoneMatch('W/"abd"', tag)).toBe(false);
    expect(matchesIfNoneMatch('', tag)).toBe(false);
  });
});

describe('CORS origins', () => {
  it('allows any origin, listed origins, or none', () => {
    expect(allowedOrigin(['*'], 'https://a.example')).toBe('*');
    expect(allowedOrigin(['https://a.example'], 'https://a.example')).toBe('https://a.example');
    expect(allowedOrigin(['https://a.example'], 'https://b.example')).toBe('');
    expect(allowedOrigin([], 'https://a.example')).toBe('');
  });

  it('defaults to any origin in development and none in production', () => {
    expect(loadConfig({}).corsOrigins).toEqual(['*']);
    expect(loadConfig({ NODE_ENV: 'production', API_KEYS: 'k' }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/' })).toThrow(/CORS_ORIGINS/);
  });

  it('bounds the rendered-body cache by BODY_CACHE_BYTES (0: off)', () => {
    expect(loadConfig({}).bodyCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ BODY_CACHE_BYTES: '0' }).bodyCacheBytes).toBe(0);
    expect(() => loadConfig({ BODY_CACHE_BYTES: '-1' })).toThrow(/BODY_CACHE_BYTES/);
  });
});
