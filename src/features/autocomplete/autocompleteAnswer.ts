/**
 * The one autocomplete: the suggestions for what has been typed so far, in the answer's language, as the
 * GET /autocomplete records. The native endpoint and the Pelias dialect (src/features/dialects/pelias/) answer
 * through it.
 */
import { answerLanguage, type Language } from '../../language/answerLanguage.js';
import { focusOf } from '../../geometry/focus.js';
import type { PlaceRepository } from '../places/placeRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';
import { AUTOCOMPLETE_AREA_TYPES, MAX_AREAS, mergeAreas } from './autocompleteAreas.js';
import { suggestionInLanguage } from './suggestionLanguage.js';
import { placeInLanguage } from '../places/placeLanguage.js';
import type { AutocompleteRepository, Suggestion } from './autocompleteRepository.js';

export interface AutocompleteAnswerServices {
  autocomplete: AutocompleteRepository;
  places: PlaceRepository;
  cityNames: CityNameRepository;
}

/** What GET /autocomplete reads from its query (its schema's output, without `format`). */
export interface AutocompleteRequest {
  q: string;
  size: number;
  lat?: number | undefined;
  lon?: number | undefined;
  lang?: Language | undefined;
}

export async function answerAutocomplete(
  { autocomplete, places, cityNames }: AutocompleteAnswerServices,
  query: AutocompleteRequest,
  acceptLanguage: string | undefined,
) {
  // Text that reads as nothing to look for (only punctuation: the first keystroke of `'t Zand`) has none.
  const input = parseAutocompleteQuery(query);
  if (!input) return [];
  const choice = { lang: query.lang, acceptLanguage };
  // The street words typed tell the language ("rue neuve 1": the words before the number).
  const typed = input.kind === 'postcode' ? query.q : input.words.join(' ');
  const inLanguage = async (list: Suggestion[]) => {
    // The known cities' names (cached per generation, but behind the once-a-second generation check) are
    // consulted only where a name can change: a language asked for, or a street named in several. A one-language
    // keystroke (all of the Netherlands) costs no more than before.
    const several = answerLanguage(choice) !== undefined || list.some((s) => s.street_names);
    const cities = several ? (await cityNames.known()).names : undefined;
    return list.map((s) => suggestionInLanguage(s, typed, choice, cities));
  };
  const suggested = async () => {
    if (input.kind !== 'street') return inLanguage(await autocomplete.suggest(input));
    // Words without a number may name an area too: both searches leave together (one _msearch).
    const [suggestions, areas] = await Promise.all([
      autocomplete.suggest(input),
      // No typo round for areas: it would cost every keystroke of a street a second round trip.
      places.search(
        { text: query.q, size: MAX_AREAS, focus: focusOf(query), layers: AUTOCOMPLETE_AREA_TYPES },
        { typos: false },
      ),
    ]);
    const areasInLanguage = areas.map((place) => placeInLanguage(place, query.q, choice));
    return mergeAreas(await inLanguage(suggestions), areasInLanguage, query.size);
  };
  return (await suggested()).map(autocompleteRecord);
}
