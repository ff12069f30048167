/**
 * Place hits (src/features/places/placeQueries.ts) as the typed results phase 2 of the search box answers with: a display
 * label, the point and envelope in the API's shapes, and a confidence from the match tier. Pure.
 */
import type { LocalisedNames, PlaceParentNames, PlaceType } from '../../../core/elasticsearch/documents.js';
import type { SearchResult } from '../../schemas/responses.js';
import type { PlaceHit, PlaceMatch } from './placeQueries.js';
import { PLACE_TYPE_RULES } from './placeTypes.js';

export interface PlaceResult {
  type: PlaceType;
  label: string;
  /** Areas: the hierarchy id (/cities/{id}/geojson); streets: the street's id; postcodes: postcode:<country>:<code>. */
  id: string;
  name: string;
  names: LocalisedNames;
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
  /** Parts of the text typed that the place does not match: a street answering a house number it lacks. */
  unmatched?: 'number'[] | undefined;
}

/** An exact name is what was asked for; a prefix or a typo is a guess, graded as forward geocoding grades them. */
const CONFIDENCE: Record<PlaceMatch, number> = { exact: 1, prefix: 0.8, typo: 0.6 };

/** "Mekelweg, Delft", "2628CD Delft", "Delft, Zuid-Holland": the label its type's rule makes (placeTypes.ts). */
export function placeLabel(hit: Pick<PlaceHit, 'type' | 'name' | 'city' | 'parent_names'>): string {
  return PLACE_TYPE_RULES[hit.type].label({ name: hit.name, city: hit.city, parents: hit.parent_names });
}

export function placeResult(hit: PlaceHit, match: PlaceMatch): PlaceResult {
  const b = hit.bbox;
  return {
    type: hit.type,
    label: placeLabel(hit),
    id: hit.id,
    name: hit.name,
    names: hit.names ?? {},
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

/** Names per language only when there is a choice (Brussels); one name is already `name`. */
export function namesIfSeveral(names: LocalisedNames): { names?: Record<string, string> } {
  const entries = Object.entries(names).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 1 ? { names: Object.fromEntries(entries) } : {};
}

/** A place as /search and /autocomplete answer it: the fields its type documents, no others. */
export function searchRecord(p: PlaceResult): SearchResult {
  const common = {
    label: p.label,
    id: p.id,
    longitude: p.longitude,
    latitude: p.latitude,
    bbox: p.bbox,
    address_count: p.address_count,
    match: p.match,
    confidence: p.confidence,
  };
  switch (p.type) {
    case 'street':
      return {
        type: p.type,
        ...common,
        streetname: p.streetname || p.name,
        city: p.city,
        postcode: p.postcode,
        ...namesIfSeveral(p.names),
        ...(p.unmatched ? { unmatched: p.unmatched } : {}),
      };
    case 'postcode':
      return { type: p.type, ...common, postcode: p.postcode || p.name, city: p.city };
    default:
      return {
        type: p.type,
        ...common,
        name: p.name,
        ...namesIfSeveral(p.names),
        local_identifier: p.local_identifier,
        parents: p.parents,
      };
  }
}
