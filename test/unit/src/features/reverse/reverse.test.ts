import type { Client } from '@elastic/elasticsearch';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import {
  AreaIndex,
  envelopeArea,
  flattenPolygon,
  geometryContains,
  type IndexedArea,
  polygonContains,
  polygonsOf,
  TileCoverage,
  tileOf,
} from '../../../../../src/features/reverse/containment.js';
import type { Searcher } from '../../../../../src/elasticsearch/searchBatcher.js';
import type { IndexGenerations } from '../../../../../src/indexes/generations.js';
import { ReverseRepository } from '../../../../../src/features/reverse/reverseRepository.js';
import { STABLE_SORT } from '../../../../../src/features/address/addressOrder.js';
import { ReverseQuery } from '../../../../../src/schemas/requests.js';
import {
  buildingCandidatesRequest,
  envelopeContainsClause,
  nearestAddressesRequest,
  radiusFilter,
  withinRadius,
} from '../../../../../src/features/reverse/reverseBodies.js';

const square = (x0: number, y0: number, x1: number, y1: number): Position[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

/** A square with a square hole, and a far-away second part. */
const donut: MultiPolygon = {
  type: 'MultiPolygon',
  coordinates: [[square(0, 0, 10, 10), square(4, 4, 6, 6)], [square(50, 50, 51, 51)]],
};

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('polygonContains', () => {
  it('is inside the outer ring and outside holes, part by part', () => {
    const parts = polygonsOf(donut);
    expect(parts).toHaveLength(2);
    expect(geometryContains(parts, 1, 1)).toBe(true);
    expect(geometryContains(parts, 5, 5)).toBe(false); // in the hole
    expect(geometryContains(parts, 50.5, 50.5)).toBe(true); // second part
    expect(geometryContains(parts, 30, 30)).toBe(false); // between the parts, inside the overall envelope
    expect(geometryContains(parts, -1, 5)).toBe(false);
  });

  it('agrees with turf on random points around an irregular polygon', () => {
    const random = seeded(7);
    const ring: Position[] = [];
    for (let i = 0; i < 40; i++) {
      const angle = (i / 40) * 2 * Math.PI;
      const r = 1 + random() * 2;
      ring.push([4 + r * Math.cos(angle), 52 + r * Math.sin(angle)]);
    }
    ring.push(ring[0]!);
    const polygon: Polygon = { type: 'Polygon', coordinates: [ring, square(3.9, 51.9, 4.1, 52.1)] };
    const flat = flattenPolygon(polygon.coordinates);
    for (let i = 0; i < 2000; i++) {
      const lon = 4 + (random() - 0.5) * 7;
      const lat = 52 + (random() - 0.5) * 7;
      expect(polygonContains(flat, lon, lat), `${lon},${lat}`).toBe(booleanPointInPolygon([lon, lat], polygon));
    }
  });

  it('has no inside for points and lines', () => {
    expect(polygonsOf({ type: 'Point', coordinates: [1, 2] })).toEqual([]);
    expect(polygonsOf(undefined)).toEqual([]);
  });
});

describe('AreaIndex', () => {
  const area = (level: string, id: string, geometry: Polygon | MultiPolygon): IndexedArea => {
    const polygons = polygonsOf(geometry);
    const b = {
      min_lon: Math.min(...polygons.map((p) => p.minLon)),
      min_lat: Math.min(...polygons.map((p) => p.minLat)),
      max_lon: Math.max(...polygons.map((p) => p.maxLon)),
      max_lat: Math.max(...polygons.map((p) => p.maxLat)),
    };
    return { level, id, envelopeArea: envelopeArea(b), polygons };
  };

  it('answers per level the containing area, the smallest envelope where two overlap', () => {
    const index = new AreaIndex([
      area('country', 'big', donut),
      area('country', 'small', { type: 'Polygon', coordinates: [square(0, 0, 2, 2)] }),
      area('municipality', 'm', { type: 'Polygon', coordinates: [square(0, 0, 3, 3)] }),
      area('municipality', 'island', { type: 'Polygon', coordinates: [square(5.5, 5.5, 5.8, 5.8)] }),
    ]);
    const at = (lon: number, lat: number) =>
      Object.fromEntries([...index.containing(lon, lat)].map(([level, a]) => [level, a.id]));
    expect(at(1, 1)).toEqual({ country: 'small', municipality: 'm' });
    expect(at(2.5, 2.5)).toEqual({ country: 'big', municipality: 'm' });
    expect(at(5.6, 5.6)).toEqual({ municipality: 'island' }); // in the hole of "big"
    expect(at(50.5, 50.5)).toEqual({ country: 'big' });
    expect(at(30, 30)).toEqual({});
    expect(index.stats).toMatchObject({ areas: 4, polygons: 5, vertices: 30 });
    expect(index.stats.bytes).toBeGreaterThan(30 * 16);
  });

  it('answers nothing when empty', () => {
    expect(new AreaIndex([]).containing(0, 0).size).toBe(0);
  });
});

describe('reverse queries', () => {
  it('filters by the box around the radius and sorts by distance, then in the stable order', () => {
    const req = nearestAddressesRequest({ lat: 52, lon: 4.3 }, 200, 5);
    expect(req.size).toBe(5);
    const box = (req.query as any).bool.filter[0].geo_bounding_box.location;
    // The box holds the circle: 200 m north/south and east/west are inside it.
    expect(box.top_left.lat).toBeGreaterThan(52 + 200 / 111_700);
    expect(box.bottom_right.lat).toBeLessThan(52 - 200 / 111_700);
    expect(box.top_left.lon).toBeLessThan(4.3 - 200 / (111_700 * Math.cos((52 * Math.PI) / 180)));
    expect(box.bottom_right.lon).toBeGreaterThan(4.3 + 200 / (111_700 * Math.cos((52 * Math.PI) / 180)));
    expect(box.top_left.lat - 52).toBeLessThan(0.002);
    expect(req.sort).toEqual([
      { _geo_distance: { location: { lat: 52, lon: 4.3 }, order: 'asc', unit: 'm', distance_type: 'arc' } },
      ...STABLE_SORT,
    ]);
    // Near a pole or across the antimeridian: the circle itself.
    expect(radiusFilter({ lat: 89.99, lon: 0 }, 200)).toEqual({
      geo_distance: { distance: '200m', location: { lat: 89.99, lon: 0 } },
    });
    expect(radiusFilter({ lat: 0, lon: 179.9999 }, 200)).toHaveProperty('geo_distance');
  });

  it('drops the hits of the box that lie beyond the radius', () => {
    const hits = [{ sort: [0] }, { sort: [199.9] }, { sort: [200] }, { sort: [200.5] }, { sort: [260] }];
    expect(withinRadius(hits, 200)).toEqual([{ sort: [0] }, { sort: [199.9] }, { sort: [200] }]);
  });

  it('asks for buildings whose envelope contains the point', () => {
    expect(envelopeContainsClause({ lat: 52, lon: 4.3 })).toEqual([
      { range: { 'bbox.min_lon': { lte: 4.3 } } },
      { range: { 'bbox.max_lon': { gte: 4.3 } } },
      { range: { 'bbox.min_lat': { lte: 52 } } },
      { range: { 'bbox.max_lat': { gte: 52 } } },
    ]);
    expect(buildingCandidatesRequest({ lat: 52, lon: 4.3 }).query).toEqual({
      bool: { filter: envelopeContainsClause({ lat: 52, lon: 4.3 }) },
    });
  });
});

describe('ReverseQuery', () => {
  const parse = (q: Record<string, string>) => ReverseQuery.safeParse(q);
  it('reads coordinates and defaults', () => {
    expect(parse({ lat: '52.0', lon: '4.37' }).data).toEqual({
      lat: 52,
      lon: 4.37,
      size: 1,
      radius: 200,
      format: 'json',
    });
    expect(parse({ lat: '-0.5', lon: '.5', size: '50', radius: '5000', format: 'geojson' }).data).toEqual({
      lat: -0.5,
      lon: 0.5,
      size: 50,
      radius: 5000,
      format: 'geojson',
    });
  });
  it('refuses missing, non-numeric and out-of-range values and unknown parameters', () => {
    for (const q of [
      { lon: '4' } as Record<string, string>,
      { lat: '', lon: '4' },
      { lat: '91', lon: '4' },
      { lat: '52', lon: 'abc' },
      { lat: '52', lon: '181' },
      { lat: '52', lon: '4', size: '0' },
      { lat: '52', lon: '4', size: '51' },
      { lat: '52', lon: '4', size: '1.5' },
      { lat: '52', lon: '4', radius: '0' },
      { lat: '52', lon: '4', radius: '5001' },
      { lat: '52', lon: '4', extra: '1' },
      { lat: '1e1', lon: '4' },
      { lat: '52', lon: '4', format: 'xml' },
    ]) {
      expect(parse(q).success, JSON.stringify(q)).toBe(false);
    }
  });
});

describe('ReverseRepository area cache', () => {
  const areaDoc = (id: string, level: string, x0: number) => ({
    _source: {
      id,
      level,
      name: id,
      local_identifier: id.toUpperCase(),
      bbox: { min_lon: x0, min_lat: 0, max_lon: x0 + 10, max_lat: 10 },
      geometry: { type: 'Polygon', coordinates: [square(x0, 0, x0 + 10, 10)] },
    },
  });

  function setup() {
    const state = { generation: 'areas-1', loads: [] as string[], fail: false };
    const client = {
      async search(req: { index: string; aggs?: unknown }) {
        if (req.aggs) return { hits: { hits: [] }, aggregations: { tiles: { buckets: [] } } };
        state.loads.push(req.index);
        if (state.fail) throw new Error('boom');
        const x0 = req.index === 'areas-1' ? 0 : 100;
        return { hits: { hits: [areaDoc(`c-${req.index}`, 'country', x0)] } };
      },
    };
    const searcher = {
      async search() {
        return { hits: { hits: [] } };
      },
    };
    const generations = { of: async () => [state.generation] };
    const repo = new ReverseRepository(
      client as unknown as Client,
      searcher as unknown as Searcher,
      '',
      generations as unknown as IndexGenerations,
    );
    return { state, repo };
  }

  it('loads the areas once per generation, reloads after an alias swap, retries a failed load', async () => {
    const { state, repo } = setup();
    const [a, b] = await Promise.all([
      repo.reverse({ lat: 5, lon: 5 }, 200, 1),
      repo.reverse({ lat: 5, lon: 5 }, 200, 1),
    ]);
    expect(a.areas.country).toEqual({ id: 'c-areas-1', name: 'c-areas-1', local_identifier: 'C-AREAS-1' });
    expect(b.areas.country?.id).toBe('c-areas-1');
    expect(a.areas.building).toBeNull();
    expect(state.loads).toEqual(['areas-1']);
    expect(repo.areaCacheState()).toMatchObject({ generation: 'areas-1', areas: 1, polygons: 1, vertices: 5 });

    state.generation = 'areas-2';
    state.fail = true;
    await expect(repo.reverse({ lat: 5, lon: 105 }, 200, 1)).rejects.toThrow('boom');
    state.fail = false;
    const c = await repo.reverse({ lat: 5, lon: 105 }, 200, 1);
    expect(c.areas.country?.id).toBe('c-areas-2');
    expect(state.loads).toEqual(['areas-1', 'areas-2', 'areas-2']);
  });
});

describe('TileCoverage', () => {
  it('covers the tiles holding a building and their neighbours only', () => {
    const { x, y } = tileOf(4.3758, 51.9953);
    expect(tileOf(4.3758, 51.9953, 14)).toEqual({ x: 8391, y: 5412 }); // as Elasticsearch's geotile_grid names it
    const coverage = new TileCoverage([`14/${x}/${y}`]);
    expect(coverage.covers(4.3758, 51.9953)).toBe(true);
    expect(coverage.covers(4.3758 + 360 / 2 ** 14, 51.9953)).toBe(true); // the next tile east
    expect(coverage.covers(4.3758 + (3 * 360) / 2 ** 14, 51.9953)).toBe(false);
    expect(new TileCoverage([]).covers(4.3758, 51.9953)).toBe(false);
    expect(new TileCoverage([], true).covers(4.3758, 51.9953)).toBe(true);
  });
});
