/**
 * The areas /autocomplete offers beside streets (cities, suburbs, municipalities, provinces, countries), from the
 * places index (the search box's), with the same `type` values GET /search answers. Pure: the merge of the two
 * answers; the endpoint runs both searches at once.
 */
import { type PlaceResult, placeResult } from '../places/placeRecords.js';
import type { AreaKeys } from '../places/areaKeys.js';
import { TYPES_WHILE_TYPING } from '../places/placeTypes.js';
import type { Suggestion } from './autocompleteRepository.js';

/** The place types offered while typing (placeTypes.ts); streets and postcodes come from autocomplete's own searches. */
export const AUTOCOMPLETE_AREA_TYPES = TYPES_WHILE_TYPING;
/** Areas offered at most per answer: the answer is mostly about streets. */
export const MAX_AREAS = 3;

/** Whether a suggestion is an area (not a street, an address or a postcode). */
export function isArea(s: Pick<Suggestion, 'type'>): boolean {
  return s.type !== 'street' && s.type !== 'address' && s.type !== 'postcode';
}

export function areaSuggestion(p: PlaceResult): Suggestion {
  return {
    type: p.type,
    label: p.label,
    id: p.id,
    streetname: '',
    number: '',
    suffix: '',
    postcode: '',
    city: p.type === 'city' ? p.name : p.parents.city,
    location: { lon: p.longitude, lat: p.latitude },
    bbox: p.bbox,
  };
}

/**
 * Whether an area found only by the start of its name can show beside `suggestions` other suggestions in an answer of
 * `size` (mergeAreas puts such areas after all of them): only while they do not fill it. Until then no place search
 * need be sent for a text that names no area exactly (AreaKeys.naming).
 */
export function prefixAreasCanShow(suggestions: number, size: number): boolean {
  return suggestions < size;
}

/**
 * An area named exactly as typed first ("Delft": the city), then the street suggestions, then areas whose name
 * only begins with the text.
 */
export function mergeAreas(
  suggestions: readonly Suggestion[],
  areas: readonly PlaceResult[],
  size: number,
): Suggestion[] {
  // An area already among the suggestions (a city by a later word of its name) is not offered twice.
  const shown = new Set(suggestions.flatMap((s) => (s.id ? [s.id] : [])));
  const fresh = areas.filter((a) => !shown.has(a.id));
  const exact = fresh.filter((a) => a.match === 'exact').map(areaSuggestion);
  const rest = fresh.filter((a) => a.match !== 'exact').map(areaSuggestion);
  return [...exact, ...suggestions, ...rest].slice(0, size);
}

/**
 * The cities a later word of whose names starts with the street words typed (`post` -> Ten Post: the places search
 * finds a name only by its start), from memory (AreaKeys.laterWords), as places matched by a prefix; `localise`
 * puts each in the answer's language.
 */
export function laterWordCities(
  keys: AreaKeys | undefined,
  words: readonly string[],
  localise: (place: PlaceResult) => PlaceResult,
): PlaceResult[] {
  const hits = keys?.laterWords.find(words.join(' '), MAX_AREAS) ?? [];
  return hits.map((hit) => localise(placeResult(hit, 'prefix')));
}
