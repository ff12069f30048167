/**
 * Place hits (src/features/search/placeQueries.ts) as the typed results phase 2 of the search box answers with: a display
 * label, the point and envelope in the API's shapes, and a confidence from the match tier. Pure.
 */
import type { PlaceParentNames, PlaceType } from '../../../core/elasticsearch/documents.js';
import type { PlaceHit, PlaceMatch } from './placeQueries.js';

export interface PlaceResult {
  type: PlaceType;
  label: string;
  /** Areas: the hierarchy id (/cities/{id}/geojson); streets: the street's id; postcodes: postcode:<country>:<code>. */
  id: string;
  name: string;
  local_identifier: string;
  parents: PlaceParentNames;
  country: string;
  streetname: string;
  city: string;
  postcode: string;
  longitude: number;
  latitude: number;
  /** [minLon, minLat, maxLon, maxLat] */
  bbox: [number, number, number, number];
  address_count: number;
  match: PlaceMatch;
  confidence: number;
}

/** An exact name is what was asked for; a prefix or a typo is a guess, graded as forward geocoding grades them. */
const CONFIDENCE: Record<PlaceMatch, number> = { exact: 1, prefix: 0.8, typo: 0.6 };

/** "Mekelweg, Delft", "2628CD Delft", "Delft, Zuid-Holland", "Wippolder, Delft", "Zuid-Holland, Netherlands". */
export function placeLabel(hit: Pick<PlaceHit, 'type' | 'name' | 'city' | 'parent_names'>): string {
  const p = hit.parent_names;
  const join = (...parts: string[]) => parts.filter((s, i) => s && parts.indexOf(s) === i).join(', ');
  switch (hit.type) {
    case 'street':
      return join(hit.name, hit.city || p.city);
    case 'postcode':
      return [hit.name, hit.city].filter(Boolean).join(' ');
    case 'suburb':
      return join(hit.name, p.city || p.municipality);
    case 'city':
    case 'municipality':
      return join(hit.name, p.province);
    case 'province':
      return join(hit.name, p.country);
    case 'country':
      return hit.name;
  }
}

export function placeResult(hit: PlaceHit, match: PlaceMatch): PlaceResult {
  const b = hit.bbox;
  return {
    type: hit.type,
    label: placeLabel(hit),
    id: hit.id,
    name: hit.name,
    local_identifier: hit.local_identifier,
    parents: hit.parent_names,
    country: hit.country,
    streetname: hit.streetname,
    city: hit.city,
    postcode: hit.postcode,
    longitude: hit.location.lon,
    latitude: hit.location.lat,
    bbox: [b.min_lon, b.min_lat, b.max_lon, b.max_lat],
    address_count: hit.address_count,
    match,
    confidence: CONFIDENCE[match],
  };
}
