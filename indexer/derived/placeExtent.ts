/**
 * A place's extent, grown one address at a time: its envelope and a representative point, the address nearest the
 * running mean (a real address, so inside the place). Pure.
 */
import type { BoundingBox, GeoPoint } from '../../core/elasticsearch/documents.js';

export interface Extent {
  count: number;
  sumLat: number;
  sumLon: number;
  point: GeoPoint;
  bbox: BoundingBox;
}

export function newExtent(p: GeoPoint): Extent {
  return {
    count: 0,
    sumLat: 0,
    sumLon: 0,
    point: { lon: p.lon, lat: p.lat },
    bbox: { min_lon: p.lon, min_lat: p.lat, max_lon: p.lon, max_lat: p.lat },
  };
}

export function extend(e: Extent, p: GeoPoint): void {
  e.count++;
  e.sumLat += p.lat;
  e.sumLon += p.lon;
  const b = e.bbox;
  if (p.lon < b.min_lon) b.min_lon = p.lon;
  if (p.lon > b.max_lon) b.max_lon = p.lon;
  if (p.lat < b.min_lat) b.min_lat = p.lat;
  if (p.lat > b.max_lat) b.max_lat = p.lat;
  // Once per address: the mean and the distances without allocating (equirectangular: an extent's points are close together).
  const meanLat = e.sumLat / e.count;
  const meanLon = e.sumLon / e.count;
  const cos = Math.cos((meanLat * Math.PI) / 180);
  const dLat = p.lat - meanLat;
  const dLon = (p.lon - meanLon) * cos;
  const pLat = e.point.lat - meanLat;
  const pLon = (e.point.lon - meanLon) * cos;
  // A copy (lon, lat: the address transform's order): the caller may reuse its point (a replayed row's is).
  if (dLat * dLat + dLon * dLon < pLat * pLat + pLon * pLon) e.point = { lon: p.lon, lat: p.lat };
}

/** Both extents as one: the counts and sums added, the envelopes joined, `big`'s point kept. */
export function mergeExtents(big: Extent, small: Extent): Extent {
  const x = big.bbox;
  const y = small.bbox;
  return {
    count: big.count + small.count,
    sumLat: big.sumLat + small.sumLat,
    sumLon: big.sumLon + small.sumLon,
    point: big.point,
    bbox: {
      min_lon: Math.min(x.min_lon, y.min_lon),
      min_lat: Math.min(x.min_lat, y.min_lat),
      max_lon: Math.max(x.max_lon, y.max_lon),
      max_lat: Math.max(x.max_lat, y.max_lat),
    },
  };
}
