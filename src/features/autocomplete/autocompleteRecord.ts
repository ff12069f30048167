/** The suggestions of GET /autocomplete, built from documents by the response schema's field list. */
import type { GeoPoint } from '../../../core/elasticsearch/documents.js';
import { AutocompleteSuggestion } from '../../schemas/responses.js';
import type { LocalisedSuggestion as Suggestion } from './suggestionLanguage.js';
import { picker } from '../../schemas/pick.js';

type Fields = Omit<Suggestion, 'location'> & { location: GeoPoint };

const fields = picker<typeof AutocompleteSuggestion, Fields>(AutocompleteSuggestion, {
  longitude: (s) => s.location.lon,
  latitude: (s) => s.location.lat,
});

/** One suggestion; `id` and `bbox` only where there is one (addresses, streets and areas; areas). */
export function autocompleteRecord(suggestion: Suggestion) {
  const record = fields(suggestion);
  if (record.id === undefined) delete record.id;
  if (record.bbox === undefined) delete record.bbox;
  return record;
}

/** GET /autocomplete's body. */
export const autocompleteRecords = (suggestions: readonly Suggestion[]) => suggestions.map(autocompleteRecord);
