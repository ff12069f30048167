/**
 * The point that stands for an area (stored as `centroid`): always inside its own geometry. The mean
 * or centre of mass of a multi-part area is not (the Netherlands' lay in the Atlantic, pulled there by
 * the Caribbean islands), so the point is the pole of inaccessibility (mapbox `polylabel`) of the
 * largest part: the spot farthest from any edge, which is also where a map puts the label.
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { Position } from 'geojson';
import polylabel from 'polylabel';
import type { GeoPoint } from '../../core/elasticsearch/documents.js';
import { toJts } from './jsts.js';
import type { PolygonGeometry } from './repair.js';

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

/** Planar area (JSTS), only to pick the largest part; holes are subtracted. */
function polygonArea(rings: Position[][]): number {
  return toJts({ type: 'Polygon', coordinates: rings }).getArea();
}

function largestPart(geometry: PolygonGeometry): Position[][] {
  if (geometry.type === 'Polygon') return geometry.coordinates;
  let best = geometry.coordinates[0] as Position[][];
  let bestArea = -1;
  for (const rings of geometry.coordinates) {
    const area = polygonArea(rings);
    if (area > bestArea) {
      best = rings;
      bestArea = area;
    }
  }
  return best;
}

/** For a valid geometry (repair.ts); the point is rounded to 6 decimals like the geometry. */
export function representativePoint(geometry: PolygonGeometry): GeoPoint {
  const part = largestPart(geometry);
  const ring = part[0] ?? [];
  let minLon = Infinity;
  let maxLon = -Infinity;
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (const [lon, lat] of ring as [number, number][]) {
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  // Precision relative to the part's size: a building needs centimetres, a country does not.
  const precision = Math.max(Math.max(maxLon - minLon, maxLat - minLat) / 1000, 1e-6);
  const [lon, lat] = polylabel(part as [number, number][][], precision) as unknown as [number, number];
  const point = { lon: round6(lon), lat: round6(lat) };
  if (booleanPointInPolygon([point.lon, point.lat], geometry, { ignoreBoundary: true })) return point;
  // A sliver thinner than the rounding step: JSTS's interior point, which is inside by construction.
  const c = toJts(geometry).getInteriorPoint().getCoordinate();
  return { lon: c?.x ?? lon, lat: c?.y ?? lat };
}
