/** Derived-city outlines: bounded point sets and concave hulls with an area (indexer/geometry/pointOutline.ts). */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { describe, expect, it } from 'vitest';
import { toJts } from '../../../../indexer/geometry/jsts.js';
import { outlineOf, ThinnedPoints } from '../../../../indexer/geometry/pointOutline.js';

describe('ThinnedPoints', () => {
  it('keeps at most 1,024 cells however many addresses go by, coarsening its grid', () => {
    const points = new ThinnedPoints();
    for (let i = 0; i < 200_000; i++) points.add(6.5 + (i % 997) * 0.0003, 53.2 + Math.floor(i / 997) * 0.0003);
    expect(points.points().length).toBeLessThanOrEqual(1024);
    expect(points.cellDegrees).toBeGreaterThan(0.001);
  });
});

describe('outlineOf', () => {
  it('gives a single address an outline with an area around it', () => {
    const points = new ThinnedPoints();
    points.add(5.1, 52.1);
    const outline = outlineOf(points)!;
    expect(toJts(outline).getArea()).toBeGreaterThan(0);
    expect(booleanPointInPolygon([5.1, 52.1], outline)).toBe(true);
  });

  it('follows an L-shaped village instead of its bounding box, and covers every address', () => {
    const points = new ThinnedPoints();
    const addresses: [number, number][] = [];
    for (let i = 0; i <= 40; i++) addresses.push([4.0 + i * 0.001, 52.0], [4.0, 52.0 + i * 0.001]);
    for (const [lon, lat] of addresses) points.add(lon, lat);
    const outline = outlineOf(points)!;
    for (const a of addresses) expect(booleanPointInPolygon(a, outline)).toBe(true);
    // The empty corner of the L is outside the hull.
    expect(booleanPointInPolygon([4.03, 52.03], outline)).toBe(false);
  });
});
