/** The unit square the tiles are cut in: geojson-vt's projection, tile squares, and rings clipped to a box. */
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { describe, expect, it } from 'vitest';
import {
  clipPolygon,
  clipRing,
  projected,
  projectX,
  projectY,
  tileBox,
} from '../../../../../src/features/tiles/unitSquare.js';
import { boxPolygon } from '../../../../support/geometry.js';

const area = (ring: number[][]) => {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
  return Math.abs(sum) / 2;
};

describe('the unit square', () => {
  it('is where geojson-vt puts longitude and latitude, so both spaces cut the same tiles', () => {
    const feature = { type: 'Feature' as const, geometry: boxPolygon(4.3, 51.9, 4.45, 52.05), properties: {} };
    const options = { maxZoom: 14, indexMaxZoom: 0 };
    const fromLonLat = new GeoJSONVT(feature, options).getTile(12, 2096, 1350);
    const fromSquare = new GeoJSONVT(projected(feature), { ...options, coordinates: 'unitSquare' }).getTile(
      12,
      2096,
      1350,
    );
    expect(fromSquare?.features).toEqual(fromLonLat?.features);
    expect(projectX(180)).toBe(1);
    expect(projectY(89)).toBe(0);
    expect(projectY(-89)).toBe(1);
  });

  it('has tile z/x/y as the square from (x, y) / 2^z, grown by a margin in tile widths', () => {
    expect(tileBox(1, 1, 0)).toEqual([0.5, 0, 1, 0.5]);
    expect(tileBox(1, 1, 0, 0.5)).toEqual([0.25, -0.25, 1.25, 0.75]);
  });
});

describe('clipping to a box', () => {
  const square = boxPolygon(0, 0, 4, 4).coordinates;

  it('keeps a ring inside as it is and drops one outside', () => {
    expect(clipRing(square[0]!, [-1, -1, 5, 5])).toBe(square[0]);
    expect(clipRing(square[0]!, [5, 5, 6, 6])).toBeUndefined();
  });

  it('cuts a ring across the box to the part inside, closed', () => {
    const ring = clipRing(square[0]!, [2, 1, 6, 3])!;
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(area(ring)).toBeCloseTo(2 * 2);
    for (const [x, y] of ring as [number, number][]) {
      expect(x).toBeGreaterThanOrEqual(2);
      expect(y).toBeGreaterThanOrEqual(1);
      expect(y).toBeLessThanOrEqual(3);
    }
  });

  it('keeps the holes that reach into the box, and none whose exterior is outside it', () => {
    const withHole = [square[0]!, boxPolygon(1, 1, 3, 3).coordinates[0]!];
    const clipped = clipPolygon(withHole, [2, 0, 4, 4])!;
    expect(clipped).toHaveLength(2);
    expect(area(clipped[0]!) - area(clipped[1]!)).toBeCloseTo(2 * 4 - 1 * 2);
    expect(clipPolygon(withHole, [3.5, 0, 4, 4])).toHaveLength(1);
    expect(clipPolygon(withHole, [5, 5, 6, 6])).toBeUndefined();
  });
});
