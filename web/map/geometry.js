/** Pure GeoJSON helpers for the page. */

/** The polygons of a Polygon or MultiPolygon geometry (nothing for other types). */
function polygonsOf(geometry) {
  if (geometry?.type === 'Polygon') return [geometry.coordinates];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

function boxOfRing(ring) {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of ring) {
    box[0] = Math.min(box[0], lon);
    box[1] = Math.min(box[1], lat);
    box[2] = Math.max(box[2], lon);
    box[3] = Math.max(box[3], lat);
  }
  return box;
}

/**
 * The envelope of the largest part of a feature: a country with far islands (the Netherlands and the
 * Caribbean) should be framed by its main land, not by the ocean between them. A point gives a null box.
 */
export function mainBox(geometry) {
  let best = null;
  let bestArea = -1;
  for (const polygon of polygonsOf(geometry)) {
    const box = boxOfRing(polygon[0] ?? []);
    const area = (box[2] - box[0]) * (box[3] - box[1]);
    if (area > bestArea) {
      best = box;
      bestArea = area;
    }
  }
  return best;
}
