/**
 * Which tiles are seeded ahead (pure): every tile of zooms 0 to `maxZoom` whose square meets the extent of the levels
 * from the municipalities down (NL and BE: seedWorker.ts' EXTENT_LEVELS), in an order that keeps a level's regions warm (regionTiles.ts), and the one
 * number each tile is kept under.
 *
 * A tile outside that extent holds countries and provinces only (and, at most, a municipality's edge within its
 * buffer); those stay cut on demand, as does every tile of a zoom past `maxZoom`.
 */
import type { Feature, Geometry, Position } from 'geojson';
import { REGION_ZOOM } from '../regionTiles.js';
import { type Box, projectX, projectY } from '../unitSquare.js';

export interface SeedRange {
  /** The deepest zoom seeded. */
  maxZoom: number;
  /** The extent, in web mercator's unit square (unitSquare.ts). */
  box: Box;
}

/** Columns and rows of zoom z that meet the range's box, inclusive. */
export interface TileSpan {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * A tile's number, unique over the whole pyramid: the tiles of the zooms before it, then its row and column. Under
 * 2^30 up to zoom 14 (358 million tiles), so a small integer to V8 (a Map keyed by it hashes no heap number).
 */
export function tileKey(z: number, x: number, y: number): number {
  return (4 ** z - 1) / 3 + y * 2 ** z + x;
}

/** The envelope of the features' coordinates, in the unit square; undefined: no coordinate. */
export function extentOf(features: readonly Feature<Geometry, unknown>[]): Box | undefined {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  const add = ([lon, lat]: Position) => {
    const x = projectX(lon!);
    const y = projectY(lat!);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (const { geometry: g } of features) {
    if (g.type === 'Point') add(g.coordinates);
    else if (g.type === 'Polygon') g.coordinates.forEach((ring) => ring.forEach(add));
    else if (g.type === 'MultiPolygon') g.coordinates.forEach((p) => p.forEach((ring) => ring.forEach(add)));
  }
  return minX <= maxX ? [minX, minY, maxX, maxY] : undefined;
}

export function spanAt({ box }: SeedRange, z: number): TileSpan {
  const n = 2 ** z;
  const cell = (v: number) => Math.min(n - 1, Math.max(0, Math.floor(v * n)));
  return { minX: cell(box[0]), minY: cell(box[1]), maxX: cell(box[2]), maxY: cell(box[3]) };
}

/** Whether tile z/x/y is one the seeding cuts. */
export function inSeedRange(range: SeedRange, z: number, x: number, y: number): boolean {
  if (z > range.maxZoom) return false;
  const span = spanAt(range, z);
  return x >= span.minX && x <= span.maxX && y >= span.minY && y <= span.maxY;
}

/** How many tiles the range holds (each seeded or known empty). */
export function tileCount(range: SeedRange): number {
  let count = 0;
  for (let z = 0; z <= range.maxZoom; z++) {
    const { minX, minY, maxX, maxY } = spanAt(range, z);
    count += (maxX - minX + 1) * (maxY - minY + 1);
  }
  return count;
}

/**
 * Every tile of the range once: zooms 0 to REGION_ZOOM row by row, then under each REGION_ZOOM tile its own deeper
 * tiles, depth first, so that the regions they are cut from are asked one after another rather than all over the
 * extent (each is clipped once, and dropped from the regions' LRU only once its tiles are done).
 */
export function* seedOrder(range: SeedRange): Generator<[z: number, x: number, y: number]> {
  const top = Math.min(range.maxZoom, REGION_ZOOM);
  for (let z = 0; z <= top; z++) {
    const { minX, minY, maxX, maxY } = spanAt(range, z);
    for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) yield [z, x, y];
  }
  if (range.maxZoom <= REGION_ZOOM) return;
  const { minX, minY, maxX, maxY } = spanAt(range, REGION_ZOOM);
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) yield* below(range, REGION_ZOOM, x, y);
}

function* below(range: SeedRange, z: number, x: number, y: number): Generator<[number, number, number]> {
  if (z >= range.maxZoom) return;
  for (const [cx, cy] of [
    [2 * x, 2 * y],
    [2 * x + 1, 2 * y],
    [2 * x, 2 * y + 1],
    [2 * x + 1, 2 * y + 1],
  ] as const) {
    if (!inSeedRange(range, z + 1, cx, cy)) continue;
    yield [z + 1, cx, cy];
    yield* below(range, z + 1, cx, cy);
  }
}
