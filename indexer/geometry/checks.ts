/**
 * Geometry checks and derived values (pure). Elasticsearch stores geometries unindexed here, so
 * nothing downstream would catch a broken ring: the indexer must reject it.
 */
import centerOfMass from '@turf/center-of-mass';
import pointOnFeature from '@turf/point-on-feature';
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import type { BoundingBox, GeoPoint } from '../../core/elasticsearch/documents.js';

export type PolygonGeometry = Polygon | MultiPolygon;

export type GeometryCheck = { ok: true; geometry: PolygonGeometry } | { ok: false; detail: string };

export function coordinateInRange(lon: number, lat: number): boolean {
  return Number.isFinite(lon) && Number.isFinite(lat) && lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}

function checkRing(ring: unknown, where: string): string | undefined {
  if (!Array.isArray(ring)) return `${where} is not an array`;
  if (ring.length < 4) return `${where} has ${ring.length} positions, a closed ring needs at least 4`;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as unknown;
    if (!Array.isArray(p) || p.length < 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number') {
      return `${where} position ${i} is not [lon, lat]`;
    }
    if (!coordinateInRange(p[0], p[1])) return `${where} position ${i} [${p[0]}, ${p[1]}] is out of range`;
  }
  const first = ring[0] as Position;
  const last = ring[ring.length - 1] as Position;
  if (first[0] !== last[0] || first[1] !== last[1]) return `${where} is not closed`;
  return undefined;
}

function checkPolygonRings(rings: unknown, where: string): string | undefined {
  if (!Array.isArray(rings) || rings.length === 0) return `${where} has no rings`;
  for (let r = 0; r < rings.length; r++) {
    const problem = checkRing(rings[r], `${where} ring ${r}`);
    if (problem) return problem;
  }
  return undefined;
}

/** Accepts only well-formed Polygon / MultiPolygon: the spatial joins need areas, not lines or points. */
export function validatePolygonal(geometry: Geometry | null | undefined): GeometryCheck {
  if (!geometry || typeof geometry !== 'object') return { ok: false, detail: 'geometry is missing' };
  if (geometry.type === 'Polygon') {
    const problem = checkPolygonRings(geometry.coordinates, 'polygon');
    return problem ? { ok: false, detail: problem } : { ok: true, geometry };
  }
  if (geometry.type === 'MultiPolygon') {
    const polys = geometry.coordinates as unknown;
    if (!Array.isArray(polys) || polys.length === 0) return { ok: false, detail: 'multipolygon is empty' };
    for (let i = 0; i < polys.length; i++) {
      const problem = checkPolygonRings(polys[i], `polygon ${i}`);
      if (problem) return { ok: false, detail: problem };
    }
    return { ok: true, geometry };
  }
  return { ok: false, detail: `geometry type ${String(geometry.type)} is not a polygon` };
}

export function polygonsOf(geometry: PolygonGeometry): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Only outer rings can widen the box, so holes are skipped. */
export function bboxOf(geometry: PolygonGeometry): BoundingBox {
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const polygon of polygonsOf(geometry)) {
    for (const p of polygon[0] ?? []) {
      const lon = p[0] as number;
      const lat = p[1] as number;
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
    }
  }
  return { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat };
}

export function bboxCenter(b: BoundingBox): GeoPoint {
  return { lon: (b.min_lon + b.max_lon) / 2, lat: (b.min_lat + b.max_lat) / 2 };
}

/** Centre of mass; for slivers where that is numerically meaningless, the box centre. */
export function centroidOf(geometry: PolygonGeometry, bbox: BoundingBox = bboxOf(geometry)): GeoPoint {
  const c = centerOfMass(geometry).geometry.coordinates;
  const lon = c[0];
  const lat = c[1];
  if (lon === undefined || lat === undefined || !coordinateInRange(lon, lat)) return bboxCenter(bbox);
  return { lon, lat };
}

/**
 * A point guaranteed inside the polygon: used to find a polygon's parent, because the centroid of a
 * concave or multi-part area (a crescent-shaped wijk, a country with islands) can lie outside it.
 */
export function pointOnSurface(geometry: PolygonGeometry): [number, number] {
  const c = pointOnFeature(geometry).geometry.coordinates;
  return [c[0] as number, c[1] as number];
}

/** Merge two areas that share a source key (e.g. Australia and its Ashmore and Cartier Islands). */
export function mergePolygonal(a: PolygonGeometry, b: PolygonGeometry): MultiPolygon {
  return { type: 'MultiPolygon', coordinates: [...polygonsOf(a), ...polygonsOf(b)] };
}

export function bboxPolygon(b: BoundingBox): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [b.min_lon, b.min_lat],
        [b.max_lon, b.min_lat],
        [b.max_lon, b.max_lat],
        [b.min_lon, b.max_lat],
        [b.min_lon, b.min_lat],
      ],
    ],
  };
}

/**
 * undefined for an empty text (a missing coordinate), NaN for garbage: `Number('')` would be 0 and
 * silently put the point on Null Island.
 */
export function parseCoordinate(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  return Number(text);
}
