/**
 * Distances on the Earth: the one great-circle formula (haversine on a sphere of the mean radius) the service's
 * rankings and filters share. Pure.
 */

/** A point in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** The Earth's mean radius in metres (IUGG). */
export const EARTH_MEAN_RADIUS_METRES = 6_371_008.8;

/** Metres between two points along the great circle (haversine). */
export function metresBetween(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}
