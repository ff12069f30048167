/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpoint } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteResponse } from '../../schemas/responses.js';
import { parseAutocompleteQuery } from './autocompleteInput.js';
import { autocompleteRecord } from './autocompleteRecord.js';

export const autocompleteEndpoint = endpoint({
  method: 'get',
  path: '/autocomplete',
  tag: 'Geocoding',
  summary: 'Type-ahead suggestions',
  description:
    'One request per keystroke: streets (by the prefix of any word, one typo tolerated), addresses once a ' +
    'number follows the street, postcodes by prefix and cities. `size` 1..20 (default 10); `lat` and `lon` ' +
    'together rank equal matches by distance (a map-centred search box). `id` is set on addresses only.',
  access: 'key',
  query: AutocompleteQueryParams,
  ok: { description: 'The suggestions, best first', schema: AutocompleteResponse },
  backend: true,
  handle: async ({ query }, { autocomplete }) => {
    // Text that reads as nothing to look for (only punctuation, say) has no suggestions.
    const input = parseAutocompleteQuery(query);
    return input ? autocomplete.suggest(input) : [];
  },
  record: (suggestions) => suggestions.map(autocompleteRecord),
});
