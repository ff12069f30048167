/**
 * Whether a geometry read from WKB is one a reader can use (pure): every coordinate a finite number, a line of at
 * least 2 positions, a polygon of at least one ring, each ring closed and of at least 4 positions (OGC Simple
 * Features' LinearRing), a multi-geometry or collection of at least one member. WKB can encode all of these wrongly
 * (an empty polygon is a count of 0 rings), and the code after the reader (a point inside a polygon, the projection)
 * fails on them with messages that name nothing; here they are a fault of the row, named.
 */
import type { Geometry, Position } from 'geojson';

function positionProblem(p: Position, where: string): string | undefined {
  const [x, y] = p as [number, number];
  return Number.isFinite(x) && Number.isFinite(y) ? undefined : `${where} is not finite (${x}, ${y})`;
}

function positionsProblem(positions: readonly Position[], where: string): string | undefined {
  for (let i = 0; i < positions.length; i++) {
    const problem = positionProblem(positions[i] as Position, `position ${i} of ${where}`);
    if (problem) return problem;
  }
  return undefined;
}

function lineProblem(line: readonly Position[], where: string): string | undefined {
  if (line.length < 2) return `${where} has ${line.length} position${line.length === 1 ? '' : 's'}, a line needs 2`;
  return positionsProblem(line, where);
}

function polygonProblem(rings: readonly Position[][], where: string): string | undefined {
  if (rings.length === 0) return `${where} has no rings`;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r] as Position[];
    const at = `ring ${r} of ${where}`;
    if (ring.length < 4) return `${at} has ${ring.length} positions, a closed ring needs at least 4`;
    const problem = positionsProblem(ring, at);
    if (problem) return problem;
    const first = ring[0] as Position;
    const last = ring[ring.length - 1] as Position;
    if (first[0] !== last[0] || first[1] !== last[1]) return `${at} is not closed`;
  }
  return undefined;
}

function membersProblem<T>(
  members: readonly T[],
  type: string,
  member: string,
  check: (m: T, where: string) => string | undefined,
): string | undefined {
  if (members.length === 0) return `the ${type} has no ${member === 'geometry' ? 'geometries' : `${member}s`}`;
  for (let i = 0; i < members.length; i++) {
    const problem = check(members[i] as T, `${member} ${i} of the ${type}`);
    if (problem) return problem;
  }
  return undefined;
}

/** What is wrong with the geometry's shape, or undefined when nothing is. */
export function geometryShapeProblem(geometry: Geometry): string | undefined {
  switch (geometry.type) {
    case 'Point':
      return positionProblem(geometry.coordinates, 'the Point');
    case 'LineString':
      return lineProblem(geometry.coordinates, 'the LineString');
    case 'Polygon':
      return polygonProblem(geometry.coordinates, 'the Polygon');
    case 'MultiPoint':
      return membersProblem(geometry.coordinates, 'MultiPoint', 'point', positionProblem);
    case 'MultiLineString':
      return membersProblem(geometry.coordinates, 'MultiLineString', 'line', lineProblem);
    case 'MultiPolygon':
      return membersProblem(geometry.coordinates, 'MultiPolygon', 'polygon', polygonProblem);
    case 'GeometryCollection':
      return membersProblem(geometry.geometries, 'GeometryCollection', 'geometry', (g, where) => {
        const problem = geometryShapeProblem(g);
        return problem && `${where}: ${problem}`;
      });
  }
}
