/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpoint } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteResponse } from '../../schemas/responses.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';
import { AUTOCOMPLETE_AREA_TYPES, MAX_AREAS, mergeAreas } from './autocompleteAreas.js';
import { focusOf } from '../../geometry/focus.js';
import { suggestionInLanguage } from './suggestionLanguage.js';
import type { Suggestion } from './autocompleteRepository.js';
import type { KnownCities } from '../search/knownCities.js';

export const autocompleteEndpoint = endpoint({
  method: 'get',
  path: '/autocomplete',
  tag: 'Geocoding',
  summary: 'Type-ahead suggestions',
  description:
    'One request per keystroke: streets (by the prefix of any word, one typo tolerated), addresses once a ' +
    'number follows the street (a Belgian box as `bus 3`, `/3`), postcodes by prefix, and areas (city, suburb, ' +
    'municipality, province, country, with `id` and `bbox`; one named exactly as typed first). `size` 1..20 ' +
    '(default 10); `lat` and `lon` together rank equal matches by distance (a map-centred search box). Text ' +
    'without a letter or digit answers `[]`.' +
    'Street names match in any language (`rue neuve` = `Nieuwstraat`); `lang` or Accept-Language picks the ' +
    'name shown (street and city), else the language typed; `names` lists the names where there are several.',
  access: 'key',
  query: AutocompleteQueryParams,
  ok: { description: 'The suggestions, best first', schema: AutocompleteResponse },
  backend: true,
  languages: true,
  handle: async ({ query, acceptLanguage }, { autocomplete, places, cityNames }) => {
    // Text that reads as nothing to look for (only punctuation: the first keystroke of `'t Zand`) has none.
    const input = parseAutocompleteQuery(query);
    if (!input) return [];
    const choice = { lang: query.lang, acceptLanguage };
    // The street words typed tell the language ("rue neuve 1": the words before the number).
    const typed = input.kind === 'postcode' ? query.q : input.words.join(' ');
    // The cities' names per language are cached per index generation: read alongside the searches.
    const inLanguage = (list: Suggestion[], cities: KnownCities) =>
      list.map((s) => suggestionInLanguage(s, typed, choice, cities.names));
    if (input.kind !== 'street') {
      const [suggestions, cities] = await Promise.all([autocomplete.suggest(input), cityNames.known()]);
      return inLanguage(suggestions, cities);
    }
    // Words without a number may name an area too: both searches leave together (one _msearch).
    const [suggestions, areas, cities] = await Promise.all([
      autocomplete.suggest(input),
      // No typo round for areas: it would cost every keystroke of a street a second round trip.
      places.search(
        { text: query.q, size: MAX_AREAS, focus: focusOf(query), layers: AUTOCOMPLETE_AREA_TYPES },
        { typos: false },
      ),
      cityNames.known(),
    ]);
    return mergeAreas(inLanguage(suggestions, cities), areas, query.size);
  },
  record: (suggestions) => suggestions.map(autocompleteRecord),
});
