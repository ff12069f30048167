import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { bboxOf } from '../../../../indexer/geometry/checks.js';
import { PolygonIndex } from '../../../../indexer/records/spatialIndex.js';
import { boxPolygon } from '../../../support/geometry.js';

function box(name: string, minLon: number, minLat: number, maxLon: number, maxLat: number) {
  const geometry = boxPolygon(minLon, minLat, maxLon, maxLat);
  return { name, geometry, bbox: bboxOf(geometry) };
}

describe('PolygonIndex', () => {
  it('finds the polygon containing a point, and nothing outside all of them', () => {
    const index = new PolygonIndex([box('a', 0, 0, 1, 1), box('b', 2, 2, 3, 3)]);
    expect(index.find(0.5, 0.5)?.name).toBe('a');
    expect(index.find(2.5, 2.9)?.name).toBe('b');
    expect(index.find(1.5, 1.5)).toBeUndefined();
    expect(index.size).toBe(2);
  });

  it('checks the real polygon, not just its box', () => {
    const triangle: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [0, 2],
          [0, 0],
        ],
      ],
    };
    const index = new PolygonIndex([{ name: 't', geometry: triangle, bbox: bboxOf(triangle) }]);
    expect(index.find(0.5, 0.5)?.name).toBe('t');
    expect(index.find(1.8, 1.8)).toBeUndefined();
  });

  it('prefers the most specific polygon where they overlap', () => {
    const index = new PolygonIndex([box('big', 0, 0, 10, 10), box('small', 1, 1, 2, 2), box('small-too', 1, 1, 2, 2)]);
    expect(index.find(1.5, 1.5)?.name).toBe('small');
    expect(index.find(5, 5)?.name).toBe('big');
  });

  it('handles an empty set', () => {
    expect(new PolygonIndex([]).find(0, 0)).toBeUndefined();
  });

  it('looks at candidates only (many polygons stay fast)', () => {
    // Each polygon counts how often its shape is read: only a candidate's is (for the containment test).
    let shapesRead = 0;
    const items = [];
    for (let i = 0; i < 200; i++) {
      for (let j = 0; j < 200; j++) {
        const { name, geometry, bbox } = box(`${i},${j}`, i, j, i + 1, j + 1);
        items.push({
          name,
          bbox,
          get geometry() {
            shapesRead++;
            return geometry;
          },
        });
      }
    }
    const index = new PolygonIndex(items);
    shapesRead = 0;
    for (let k = 0; k < 20_000; k++) index.find((k % 200) + 0.5, ((k * 7) % 200) + 0.5);
    // One candidate per lookup (each point lies inside one box only), not 40,000.
    expect(shapesRead).toBe(20_000);
    expect(index.find(150.5, 20.5)?.name).toBe('150,20');
  });
});
