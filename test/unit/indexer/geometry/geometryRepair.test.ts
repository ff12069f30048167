/** The index-time geometry repairs (indexer/geometry/) on small, real-looking cases. */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { U_SHAPE } from '../../../support/geometry.js';
import { unwrapRing } from '../../../../indexer/geometry/antimeridian.js';
import { toJts, validityError } from '../../../../indexer/geometry/jsts.js';
import { normaliseGeometry, type PolygonGeometry } from '../../../../indexer/geometry/repair.js';
import { representativePoint } from '../../../../indexer/geometry/representativePoint.js';

function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) {
    const [ax, ay] = ring[i - 1] as [number, number];
    const [bx, by] = ring[i] as [number, number];
    sum += ax * by - bx * ay;
  }
  return sum / 2;
}

function normalised(g: PolygonGeometry) {
  const r = normaliseGeometry(g);
  if (!r.ok) throw new Error(r.detail);
  expect(validityError(toJts(r.geometry))).toBeUndefined();
  return r;
}

const polygons = (g: PolygonGeometry) => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);

describe('normaliseGeometry', () => {
  it('splits a bow-tie into its two triangles (both lobes kept)', () => {
    const bowTie: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [4.3, 52.0],
          [4.4, 52.1],
          [4.4, 52.0],
          [4.3, 52.1],
          [4.3, 52.0],
        ],
      ],
    };
    expect(validityError(toJts(bowTie))).toMatch(/Self-intersection/);
    const r = normalised(bowTie);
    expect(r.repairs.repaired).toBe(true);
    expect(polygons(r.geometry)).toHaveLength(2);
    expect(toJts(r.geometry).getArea()).toBeCloseTo(0.005, 6);
  });

  it('drops a hole that lies outside its shell (Dronten)', () => {
    const g: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [5.6, 52.4],
          [5.7, 52.4],
          [5.7, 52.5],
          [5.6, 52.5],
          [5.6, 52.4],
        ],
        [
          [5.8, 52.41],
          [5.8, 52.42],
          [5.81, 52.42],
          [5.81, 52.41],
          [5.8, 52.41],
        ],
      ],
    };
    expect(validityError(toJts(g))).toMatch(/Hole lies outside shell/);
    const r = normalised(g);
    expect(r.repairs.repaired).toBe(true);
    expect(polygons(r.geometry)).toEqual([[expect.any(Array)]]);
    expect(toJts(r.geometry).getArea()).toBeCloseTo(0.01, 8);
  });

  it('cuts a ring crossing the antimeridian into parts east and west of ±180 (Fiji-like)', () => {
    const g: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [179.5, -16.5],
          [-179.5, -16.5],
          [-179.5, -16.0],
          [179.5, -16.0],
          [179.5, -16.5],
        ],
      ],
    };
    const r = normalised(g);
    expect(r.repairs.antimeridianSplit).toBe(true);
    const parts = polygons(r.geometry);
    expect(parts).toHaveLength(2);
    const lons = parts.map((p) => (p[0] as Position[]).map((q) => q[0] as number));
    expect(lons.map((l) => [Math.min(...l), Math.max(...l)]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [-180, -179.5],
      [179.5, 180],
    ]);
    expect(toJts(r.geometry).getArea()).toBeCloseTo(0.5, 6);
  });

  it('leaves a ring around the pole alone when unwrapping cannot close it', () => {
    const ring = [
      [-180, -89],
      [-60, -70],
      [60, -70],
      [180, -89],
      [-180, -89],
    ];
    expect(unwrapRing(ring)).toEqual({ ring, shifted: false });
  });

  it('winds clockwise input the RFC 7946 way (shell CCW, hole CW) and rounds to 6 decimals', () => {
    const g: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [4.35, 52.0],
          [4.35, 52.01234567],
          [4.36123456789, 52.01234567],
          [4.36123456789, 52.0],
          [4.35, 52.0],
        ],
        [
          [4.352, 52.002],
          [4.354, 52.002],
          [4.354, 52.004],
          [4.352, 52.004],
          [4.352, 52.002],
        ],
      ],
    };
    const r = normalised(g);
    expect(r.repairs).toEqual({ repaired: false, antimeridianSplit: false, rewound: true });
    const [shell, hole] = polygons(r.geometry)[0] as Position[][];
    expect(signedArea(shell!)).toBeGreaterThan(0);
    expect(signedArea(hole!)).toBeLessThan(0);
    for (const p of shell!) for (const v of p) expect(Math.round(v * 1e6) / 1e6).toBe(v);
    expect(shell).toContainEqual([4.361235, 52.012346]);
  });

  it('rejects a geometry with no area left', () => {
    const sliver: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [4.35, 52.0],
          [4.3500001, 52.0],
          [4.35, 52.0000001],
          [4.35, 52.0],
        ],
      ],
    };
    expect(normaliseGeometry(sliver)).toMatchObject({ ok: false });
  });
});

describe('representativePoint', () => {
  it('lies inside a multi-part area whose centre of mass is in the sea', () => {
    // A mainland and a far-away island, like the Netherlands and Bonaire.
    const g: MultiPolygon = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [3.4, 51.4],
            [7.2, 51.4],
            [7.2, 53.5],
            [3.4, 53.5],
            [3.4, 51.4],
          ],
        ],
        [
          [
            [-68.4, 12.0],
            [-68.2, 12.0],
            [-68.2, 12.3],
            [-68.4, 12.3],
            [-68.4, 12.0],
          ],
        ],
      ],
    };
    const p = representativePoint(g);
    expect(booleanPointInPolygon([p.lon, p.lat], g)).toBe(true);
    expect(p.lon).toBeGreaterThan(3.4);
  });

  it('lies inside a U-shaped building', () => {
    const u = U_SHAPE;
    const p = representativePoint(u);
    expect(booleanPointInPolygon([p.lon, p.lat], u, { ignoreBoundary: true })).toBe(true);
  });
});
