/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpoint } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteResponse } from '../../schemas/responses.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';
import { AUTOCOMPLETE_AREA_TYPES, MAX_AREAS, mergeAreas } from './autocompleteAreas.js';
import { focusOf } from '../../geometry/focus.js';

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
    'without a letter or digit answers `[]`.',
  access: 'key',
  query: AutocompleteQueryParams,
  ok: { description: 'The suggestions, best first', schema: AutocompleteResponse },
  backend: true,
  handle: async ({ query }, { autocomplete, places }) => {
    // Text that reads as nothing to look for (only punctuation: the first keystroke of `'t Zand`) has none.
    const input = parseAutocompleteQuery(query);
    if (!input) return [];
    if (input.kind !== 'street') return autocomplete.suggest(input);
    // Words without a number may name an area too: both searches leave together (one _msearch).
    const [suggestions, areas] = await Promise.all([
      autocomplete.suggest(input),
      // No typo round for areas: it would cost every keystroke of a street a second round trip.
      places.search(
        { text: query.q, size: MAX_AREAS, focus: focusOf(query), layers: AUTOCOMPLETE_AREA_TYPES },
        { typos: false },
      ),
    ]);
    return mergeAreas(suggestions, areas, query.size);
  },
  record: (suggestions) => suggestions.map(autocompleteRecord),
});
