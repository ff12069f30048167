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

/** A U-shaped polygon (3 x 3 with a 1-wide notch from the top) whose centroid lies in the notch, outside it. */
export const U_SHAPE: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [3, 0],
      [3, 3],
      [2, 3],
      [2, 1],
      [1, 1],
      [1, 3],
      [0, 3],
      [0, 0],
    ],
  ],
};
