/**
 * Reading boundary tiles in tests as a map client does (@mapbox/vector-tile over pbf), and the plane geometry the
 * checks need: web-mercator tile coordinates, ring areas, clipping to a tile, point in polygon.
 */
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import type { Position } from 'geojson';

export type XY = [number, number];

export function decodeTile(bytes: ArrayBuffer | Uint8Array): VectorTile {
  return new VectorTile(new PbfReader(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)));
}

export function featuresOf(tile: VectorTile, layer: string): VectorTileFeature[] {
  const l = tile.layers[layer];
  if (!l) return [];
  return Array.from({ length: l.length }, (_, i) => l.feature(i));
}

/** A point in world units at zoom z: tile x * extent + the position in the tile (web mercator, y down). */
export function worldXY([lon, lat]: Position, z: number, extent: number): XY {
  const n = 2 ** z * extent;
  const rad = ((lat as number) * Math.PI) / 180;
  return [(((lon as number) + 180) / 360) * n, ((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * n];
}

/** The tiles of zoom z whose square intersects the lon/lat box. */
export function tilesOver(box: [number, number, number, number], z: number): { x: number; y: number }[] {
  const [minX, minY] = worldXY([box[0], box[3]], z, 1);
  const [maxX, maxY] = worldXY([box[2], box[1]], z, 1);
  const tiles = [];
  for (let x = Math.floor(minX); x <= Math.floor(maxX); x++) {
    for (let y = Math.floor(minY); y <= Math.floor(maxY); y++) tiles.push({ x, y });
  }
  return tiles;
}

/** Signed shoelace area. */
export function ringArea(ring: readonly XY[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return sum / 2;
}

/** Sutherland-Hodgman against an axis-aligned square (enough for areas: degenerate edges add nothing). */
export function clipRing(ring: readonly XY[], min: number, max: number): XY[] {
  const edges: [(p: XY) => boolean, (a: XY, b: XY) => XY][] = [
    [(p) => p[0] >= min, (a, b) => cut(a, b, 0, min)],
    [(p) => p[0] <= max, (a, b) => cut(a, b, 0, max)],
    [(p) => p[1] >= min, (a, b) => cut(a, b, 1, min)],
    [(p) => p[1] <= max, (a, b) => cut(a, b, 1, max)],
  ];
  let out: XY[] = [...ring];
  for (const [inside, intersect] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const current = input[i]!;
      const previous = input[(i + input.length - 1) % input.length]!;
      if (inside(current)) {
        if (!inside(previous)) out.push(intersect(previous, current));
        out.push(current);
      } else if (inside(previous)) out.push(intersect(previous, current));
    }
  }
  return out;
}

function cut(a: XY, b: XY, axis: 0 | 1, value: number): XY {
  const t = (value - a[axis]) / (b[axis] - a[axis]);
  return axis === 0 ? [value, a[1] + t * (b[1] - a[1])] : [a[0] + t * (b[0] - a[0]), value];
}

/** Even-odd over every ring. */
export function insideRings(rings: readonly (readonly XY[])[], [x, y]: XY): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Distance from a point to the nearest edge of any ring. */
export function distanceToRings(rings: readonly (readonly XY[])[], [x, y]: XY): number {
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [ax, ay] = ring[j]!;
      const [bx, by] = ring[i]!;
      const dx = bx - ax;
      const dy = by - ay;
      const t =
        dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
    }
  }
  return best;
}
