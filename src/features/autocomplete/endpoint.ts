/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpointsOf } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteFeatureCollection, AutocompleteResponse } from '../../schemas/responses.js';
import { resultsAsFeatures } from '../../geojson/resultFeatures.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';
import { AUTOCOMPLETE_AREA_TYPES, MAX_AREAS, mergeAreas } from './autocompleteAreas.js';
import { focusOf } from '../../geometry/focus.js';
import { placeInLanguage, suggestionInLanguage } from './suggestionLanguage.js';
import type { Suggestion } from './autocompleteRepository.js';
import { answerLanguage } from '../../language/answerLanguage.js';
import type { AutocompleteRepository } from './autocompleteRepository.js';
import type { PlaceRepository } from '../places/placeRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';

/** The services GET /autocomplete uses (src/wiring/services.ts builds them). */
export interface AutocompleteServices {
  autocomplete: AutocompleteRepository;
  /** The places index: suggestions offer its places. */
  places: PlaceRepository;
  cityNames: CityNameRepository;
}

export const autocompleteEndpoint = endpointsOf<AutocompleteServices>()({
  method: 'get',
  path: '/autocomplete',
  tag: 'Geocoding',
  summary: 'Type-ahead suggestions',
  description:
    'One request per keystroke: streets (by the prefix of any word, one typo tolerated), addresses once a ' +
    'number follows the street (a Belgian box as `bus 3`, `/3`), postcodes by prefix, and areas (city, suburb, ' +
    'municipality, province, country, with `id` and `bbox`; one named exactly as typed first). `size` 1..20 ' +
    '(default 10); `lat` and `lon` together rank equal matches by distance (a map-centred search box). Text ' +
    'without a letter or digit answers `[]`. ' +
    'Street names match in any language (`rue neuve` = `Nieuwstraat`); `lang` or Accept-Language picks the ' +
    'name shown (street and city), else the language typed; `names` lists the names where there are several. ' +
    '`format=geojson`: the same suggestions as a FeatureCollection of points.',
  access: 'key',
  query: AutocompleteQueryParams,
  ok: {
    description: 'The suggestions, best first',
    schema: AutocompleteResponse,
    geojsonFormat: { schema: AutocompleteFeatureCollection, shape: resultsAsFeatures },
  },
  backend: true,
  languages: true,
  handle: async ({ query, acceptLanguage }, { autocomplete, places, cityNames }) => {
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
  },
  record: (suggestions) => suggestions.map(autocompleteRecord),
});
