/**
 * `?simplify=<metres>`: Douglas-Peucker (@turf/simplify) on every ring of a boundary, per feature. Pure.
 *
 * Turf measures its tolerance in coordinate units, and a degree of longitude shrinks with latitude. Each ring
 * is therefore simplified in a local equirectangular frame (longitude times cos(latitude) of the feature),
 * where one unit is ~111 km along both axes, so the tolerance is the same number of metres east-west as
 * north-south. The output keeps the original vertices (a subsequence of them), never re-projected ones.
 *
 * Rings that collapse (fewer than 4 positions) are dropped: a hole that vanishes, or a polygon of a
 * MultiPolygon (an islet). Should every polygon collapse, a finer tolerance is tried (see simplifyGeometry):
 * a feature never disappears from a collection because of simplification. Douglas-Peucker can still make a ring
 * cross itself or a hole cross its shell on very jagged input; this is not repaired (see docs/api.md, Hierarchy).
 */
import { simplify } from '@turf/simplify';
import type { Geometry, LineString, Position } from 'geojson';

export const METRES_PER_DEGREE = 111_320;
/** Beyond ±89.4° cos(lat) is below 0.01: the frame would stretch longitudes a hundredfold; cap it there. */
const MIN_LONGITUDE_SCALE = 0.01;

/** The tolerance in frame units (degrees of latitude) and the longitude scale at a feature's latitude. */
export function simplifyFrame(metres: number, latitude: number): { tolerance: number; lonScale: number } {
  const lonScale = Math.max(Math.cos((latitude * Math.PI) / 180), MIN_LONGITUDE_SCALE);
  return { tolerance: metres / METRES_PER_DEGREE, lonScale };
}

/** A closed ring needs at least 4 positions of which 3 differ (RFC 7946 3.1.6). */
export function isUsableRing(ring: Position[]): boolean {
  if (ring.length < 4) return false;
  const distinct = new Set(ring.map((p) => `${p[0]},${p[1]}`));
  return distinct.size >= 3;
}

const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

function simplifyRing(ring: Position[], tolerance: number, lonScale: number): Position[] | undefined {
  // The third element carries each vertex's index, so the kept vertices map back to the exact originals.
  const frame: LineString = { type: 'LineString', coordinates: ring.map((p, i) => [p[0]! * lonScale, p[1]!, i]) };
  const kept = simplify(frame, { tolerance, mutate: true }).coordinates.map((p) => ring[p[2]!]!);
  const first = kept[0];
  const last = kept[kept.length - 1];
  if (first && last && (last[0] !== first[0] || last[1] !== first[1])) kept.push(first);
  return isUsableRing(kept) ? kept : undefined;
}

/** A polygon's rings simplified; undefined when its shell collapses. Holes that collapse are left out. */
function simplifyPolygon(rings: Position[][], tolerance: number, lonScale: number): Position[][] | undefined {
  const [shell, ...holes] = rings;
  const simpleShell = shell && simplifyRing(shell, tolerance, lonScale);
  if (!simpleShell) return undefined;
  const simpleHoles = holes.map((hole) => simplifyRing(hole, tolerance, lonScale)).filter(isDefined);
  return [simpleShell, ...simpleHoles];
}

/** Polygons and MultiPolygons simplified (same type out); any other geometry as it came. */
export function simplifyShape<G extends Geometry>(geometry: G, metres: number, latitude: number): G {
  return simplifyGeometry(geometry, metres, latitude) as G;
}

/**
 * A feature whose every polygon collapses at the asked tolerance (a small municipality at a country-wide zoom)
 * is simplified at the coarsest of a quarter, a sixteenth, ... of it that keeps a polygon: its original geometry
 * would be the largest answer of all exactly where the client asked for the least detail.
 */
const COARSER_TRIES = 6;

function simplifyGeometry(geometry: Geometry, metres: number, latitude: number): Geometry {
  for (let attempt = 0, tolerance = metres; attempt <= COARSER_TRIES; attempt++, tolerance /= 4) {
    const simplified = simplifyPolygons(geometry, tolerance, latitude);
    if (simplified) return simplified;
  }
  return geometry;
}

/** undefined when every polygon collapses; any geometry other than (Multi)Polygon as it came. */
function simplifyPolygons(geometry: Geometry, metres: number, latitude: number): Geometry | undefined {
  const { tolerance, lonScale } = simplifyFrame(metres, latitude);
  if (geometry.type === 'Polygon') {
    const rings = simplifyPolygon(geometry.coordinates, tolerance, lonScale);
    return rings ? { type: 'Polygon', coordinates: rings } : undefined;
  }
  if (geometry.type === 'MultiPolygon') {
    const polygons = geometry.coordinates.map((rings) => simplifyPolygon(rings, tolerance, lonScale)).filter(isDefined);
    return polygons.length > 0 ? { type: 'MultiPolygon', coordinates: polygons } : undefined;
  }
  return geometry;
}
