/** The map page's view -> API parameters (web/map/viewport.js, a plain browser module without types). */
import { describe, expect, it } from 'vitest';

// A path in a variable: the module is browser JavaScript, outside the TypeScript program.
const modulePath = '../../../../web/map/viewport.js';
const { bboxParam, snappedBounds, simplifyParam } = await import(modulePath);

type Bounds = { west: number; south: number; east: number; north: number };
/** A 1280x800 view at zoom 13 around Delft, panned by `dx`, `dy` degrees. */
const delftView = (dx: number, dy: number): Bounds => ({
  west: 4.33 + dx,
  south: 51.99 + dy,
  east: 4.33 + 0.11 + dx,
  north: 51.99 + 0.04 + dy,
});

describe('the bbox a map view asks for', () => {
  it('is the same for small pans, so the caches answer them', () => {
    const asked = new Set<string>();
    for (let step = 0; step < 10; step++) asked.add(bboxParam(snappedBounds(delftView(step * 0.001, 0), 13)));
    expect(asked.size).toBe(1);
  });

  it('always contains the view', () => {
    for (const [dx, dy] of [
      [0, 0],
      [0.03, -0.02],
      [-0.5, 0.7],
    ] as const) {
      const view = delftView(dx, dy);
      const box = snappedBounds(view, 13);
      expect(box.west).toBeLessThanOrEqual(view.west);
      expect(box.south).toBeLessThanOrEqual(view.south);
      expect(box.east).toBeGreaterThanOrEqual(view.east);
      expect(box.north).toBeGreaterThanOrEqual(view.north);
    }
  });

  it('stays within the world the API accepts when zoomed far out', () => {
    const box = bboxParam(snappedBounds({ west: -250, south: -100, east: 250, north: 100 }, 1));
    expect(box).toBe('-180,-90,180,90');
  });

  it('asks for about a pixel of simplification', () => {
    expect(simplifyParam(13, 52)).toBe(12);
    expect(simplifyParam(3, 52)).toBe(12000);
  });
});
