/**
 * What a search result (GET /search, /autocomplete) is on the map. Pure: the boundary endpoint of an area, the
 * rectangle of a street's or postcode's extent. Areas are outlined by their own shape, fetched by their hierarchy
 * id; a street or a postcode has no shape of its own, so its addresses' extent (its `bbox`) stands in for it.
 */
import { queryString } from './api.js';
import { OUTLINE_SIMPLIFY_M } from './browseLevels.js';

/** The path segment of each area type's `/{segment}/{id}/geojson`. */
const BOUNDARY_PATHS = {
  country: 'countries',
  province: 'provinces',
  municipality: 'municipalities',
  city: 'cities',
  suburb: 'suburbs',
};

export const isArea = (result) => Object.hasOwn(BOUNDARY_PATHS, result.type) && Boolean(result.id);

/** The area's outline, simplified about as the browse panel draws that level. */
export function boundaryUrl(result) {
  const simplify = OUTLINE_SIMPLIFY_M[result.type];
  return `/${BOUNDARY_PATHS[result.type]}/${encodeURIComponent(result.id)}/geojson${queryString({ simplify })}`;
}

/** `[minLon, minLat, maxLon, maxLat]` as a Polygon feature (exterior ring counter-clockwise, RFC 7946). */
export function boxFeature([minLon, minLat, maxLon, maxLat]) {
  const ring = [
    [minLon, minLat],
    [maxLon, minLat],
    [maxLon, maxLat],
    [minLon, maxLat],
    [minLon, minLat],
  ];
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} };
}
