import type { Polygon } from 'geojson';

/** An axis-aligned rectangle as a closed GeoJSON polygon ring, counter-clockwise. */
export function boxPolygon(minLon: number, minLat: number, maxLon: number, maxLat: number): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [minLon, minLat],
        [maxLon, minLat],
        [maxLon, maxLat],
        [minLon, maxLat],
        [minLon, minLat],
      ],
    ],
  };
}
