/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpoint } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteResponse } from '../../schemas/responses.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';
import { suggestionInLanguage } from './suggestionLanguage.js';

export const autocompleteEndpoint = endpoint({
  method: 'get',
  path: '/autocomplete',
  tag: 'Geocoding',
  summary: 'Type-ahead suggestions',
  description:
    'One request per keystroke: streets (by the prefix of any word, one typo tolerated), addresses once a ' +
    'number follows the street, postcodes by prefix and cities. `size` 1..20 (default 10); `lat` and `lon` ' +
    'together rank equal matches by distance (a map-centred search box). `id` is set on addresses only. ' +
    'Street names match in any language (`rue neuve` = `Nieuwstraat`); `lang` or Accept-Language picks the ' +
    "name shown, else the language typed; `names` lists a street's names where it has several.",
  access: 'key',
  query: AutocompleteQueryParams,
  ok: { description: 'The suggestions, best first', schema: AutocompleteResponse },
  backend: true,
  languages: true,
  handle: async ({ query, acceptLanguage }, { autocomplete }) => {
    // Text that reads as nothing to look for (only punctuation, say) has no suggestions.
    const input = parseAutocompleteQuery(query);
    if (!input) return [];
    const choice = { lang: query.lang, acceptLanguage };
    // The street words typed tell the language ("rue neuve 1": the words before the number).
    const typed = input.kind === 'postcode' ? query.q : input.words.join(' ');
    return (await autocomplete.suggest(input)).map((s) => suggestionInLanguage(s, typed, choice));
  },
  record: (suggestions) => suggestions.map(autocompleteRecord),
});
