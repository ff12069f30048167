/**
 * Geometry in web mercator's unit square (pure): x 0-1 west to east, y 0-1 north to south, tile z/x/y being the square
 * from (x, y) / 2^z to (x + 1, y + 1) / 2^z. geojson-vt cuts tiles in this space, and takes features in it as they
 * are with `coordinates: 'unitSquare'`; the projection is its own (latitudes clamped at ~85.05 degrees), so a feature
 * projected here is cut exactly as geojson-vt would cut it from longitude and latitude.
 *
 * Clipping happens here too, so that it is straight in the same space as the tiles' edges: a polygon cut to a box in
 * longitude and latitude would bend by up to ~100 m across a long border segment in mercator, a quarter of a zoom-14
 * tile.
 */
import type { Feature, Geometry, Position } from 'geojson';

export type Box = readonly [minX: number, minY: number, maxX: number, maxY: number];
export type Ring = Position[];

export const projectX = (lon: number) => lon / 360 + 0.5;

export function projectY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

const projectRing = (ring: Ring): Ring => ring.map((p) => [projectX(p[0]!), projectY(p[1]!)]);

/** The feature in the unit square; only points and (multi)polygons, the geometry the boundary tiles carry. */
export function projected<P>(feature: Feature<Geometry, P>): Feature<Geometry, P> {
  const g = feature.geometry;
  let geometry: Geometry;
  if (g.type === 'Point')
    geometry = { type: 'Point', coordinates: [projectX(g.coordinates[0]!), projectY(g.coordinates[1]!)] };
  else if (g.type === 'Polygon') geometry = { type: 'Polygon', coordinates: g.coordinates.map(projectRing) };
  else if (g.type === 'MultiPolygon')
    geometry = { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(projectRing)) };
  else throw new Error(`boundary tiles carry no ${g.type}`);
  return { ...feature, geometry };
}

/** Tile z/x/y's square grown by `margin` (in that tile's widths) on each side. */
export function tileBox(z: number, x: number, y: number, margin = 0): Box {
  const size = 1 / 2 ** z;
  return [(x - margin) * size, (y - margin) * size, (x + 1 + margin) * size, (y + 1 + margin) * size];
}

export function ringBox(ring: Ring): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring as [number, number][]) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/** One side of the box: which coordinate (0 x, 1 y), the bound, and whether inside is at or above it. */
type Edge = [axis: 0 | 1, bound: number, above: boolean];

/** The ring's part on the inside of one edge (Sutherland-Hodgman), open (the last point is not the first again). */
function clipToEdge(points: Ring, [axis, bound, above]: Edge): Ring {
  const out: Ring = [];
  const inside = (p: Position) => (above ? p[axis]! >= bound : p[axis]! <= bound);
  for (let i = 0; i < points.length; i++) {
    const current = points[i]!;
    const previous = points[(i + points.length - 1) % points.length]!;
    const currentIn = inside(current);
    if (currentIn !== inside(previous)) {
      const t = (bound - previous[axis]!) / (current[axis]! - previous[axis]!);
      const other = axis === 0 ? 1 : 0;
      const crossing: Position = [0, 0];
      crossing[axis] = bound;
      crossing[other] = previous[other]! + t * (current[other]! - previous[other]!);
      out.push(crossing);
    }
    if (currentIn) out.push(current);
  }
  return out;
}

/**
 * A closed ring cut to the box: a closed ring again, undefined when nothing of it is inside. Where the ring leaves the
 * box, its part runs along the box's edge; cut with a margin beyond any tile it is drawn in, that edge is never seen.
 */
export function clipRing(ring: Ring, [minX, minY, maxX, maxY]: Box): Ring | undefined {
  const [rMinX, rMinY, rMaxX, rMaxY] = ringBox(ring);
  if (rMinX >= minX && rMaxX <= maxX && rMinY >= minY && rMaxY <= maxY) return ring;
  if (rMaxX < minX || rMinX > maxX || rMaxY < minY || rMinY > maxY) return undefined;
  let points = ring.slice(0, -1);
  for (const edge of [
    [0, minX, true],
    [0, maxX, false],
    [1, minY, true],
    [1, maxY, false],
  ] as Edge[]) {
    points = clipToEdge(points, edge);
    if (points.length < 3) return undefined;
  }
  return [...points, points[0]!];
}

/** A polygon (exterior ring, then holes) cut to the box; undefined when its exterior is outside it. */
export function clipPolygon(rings: Ring[], box: Box): Ring[] | undefined {
  const exterior = clipRing(rings[0]!, box);
  if (!exterior) return undefined;
  const clipped = [exterior];
  for (const hole of rings.slice(1)) {
    const kept = clipRing(hole, box);
    if (kept) clipped.push(kept);
  }
  return clipped;
}
