import type { Geometry, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { U_SHAPE } from '../../../support/geometry.js';
import {
  bboxOf,
  bboxPolygon,
  centroidOf,
  coordinateInRange,
  mergePolygonal,
  parseCoordinate,
  pointOnSurface,
  validatePolygonal,
} from '../../../../indexer/geometry/checks.js';
import { boxPolygon } from '../../../support/geometry.js';

const square = boxPolygon(4, 52, 5, 53);

function detail(g: unknown): string {
  const check = validatePolygonal(g as Geometry);
  if (check.ok) throw new Error('expected invalid');
  return check.detail;
}

describe('validatePolygonal', () => {
  it('accepts polygons and multipolygons', () => {
    expect(validatePolygonal(square).ok).toBe(true);
    expect(validatePolygonal({ type: 'MultiPolygon', coordinates: [square.coordinates] }).ok).toBe(true);
  });

  it('names what is wrong', () => {
    expect(detail(null)).toMatch(/missing/);
    expect(detail({ type: 'Point', coordinates: [4, 52] })).toMatch(/not a polygon/);
    expect(detail({ type: 'Polygon', coordinates: [] })).toMatch(/no rings/);
    expect(detail({ type: 'MultiPolygon', coordinates: [] })).toMatch(/empty/);
    expect(
      detail({
        type: 'Polygon',
        coordinates: [
          [
            [4, 52],
            [5, 52],
            [4, 52],
          ],
        ],
      }),
    ).toMatch(/at least 4/);
    expect(
      detail({
        type: 'Polygon',
        coordinates: [
          [
            [4, 52],
            [5, 52],
            [5, 53],
            [4, 53.1],
          ],
        ],
      }),
    ).toMatch(/not closed/);
    expect(
      detail({
        type: 'Polygon',
        coordinates: [
          [
            [4, 52],
            [500, 52],
            [5, 53],
            [4, 52],
          ],
        ],
      }),
    ).toMatch(/out of range/);
    expect(
      detail({
        type: 'Polygon',
        coordinates: [
          [
            [4, 52],
            ['x', 52],
            [5, 53],
            [4, 52],
          ],
        ],
      }),
    ).toMatch(/not \[lon, lat\]/);
  });
});

describe('derived values', () => {
  it('computes bbox, centroid and a point inside', () => {
    expect(bboxOf(square)).toEqual({ min_lon: 4, min_lat: 52, max_lon: 5, max_lat: 53 });
    const c = centroidOf(square);
    expect(c.lon).toBeCloseTo(4.5);
    expect(c.lat).toBeCloseTo(52.5);
    const [lon, lat] = pointOnSurface(square);
    expect(lon).toBeGreaterThanOrEqual(4);
    expect(lat).toBeLessThanOrEqual(53);
  });

  it('finds a point inside a U-shaped polygon whose centroid is outside', () => {
    const u = U_SHAPE;
    const [lon, lat] = pointOnSurface(u);
    const insideArm = lon <= 1 || lon >= 2 || lat <= 1;
    expect(insideArm).toBe(true);
  });

  it('merges parts and builds a box polygon', () => {
    const other: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [10, 10],
          [11, 10],
          [11, 11],
          [10, 10],
        ],
      ],
    };
    const merged = mergePolygonal(square, other);
    expect(merged.coordinates).toHaveLength(2);
    expect(bboxOf(merged)).toEqual({ min_lon: 4, min_lat: 10, max_lon: 11, max_lat: 53 });
    const box = bboxPolygon({ min_lon: 1, min_lat: 2, max_lon: 3, max_lat: 4 });
    expect(validatePolygonal(box).ok).toBe(true);
  });

  it('parses coordinates strictly', () => {
    expect(parseCoordinate('')).toBeUndefined();
    expect(parseCoordinate('  ')).toBeUndefined();
    expect(parseCoordinate('4.37')).toBe(4.37);
    expect(parseCoordinate('abc')).toBeNaN();
    expect(coordinateInRange(4, 52)).toBe(true);
    expect(coordinateInRange(181, 52)).toBe(false);
    expect(coordinateInRange(4, -91)).toBe(false);
    expect(coordinateInRange(Number.NaN, 1)).toBe(false);
  });
});
