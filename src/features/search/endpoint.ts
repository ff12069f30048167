/** GET /search: free text read as an address, answered in the /geocode/forward shape. */
import { endpoint } from '../../endpoints/endpoint.js';
import { MAX_SEARCH_SIZE, SearchQueryParams } from '../../schemas/requests.js';
import { SearchResponse } from '../../schemas/responses.js';
import { forwardRecord } from '../address/addressRecords.js';
import { focusOf } from '../../geometry/focus.js';

export const searchEndpoint = endpoint({
  method: 'get',
  path: '/search',
  tag: 'Geocoding',
  summary: 'Free-text address search',
  description:
    'Reads an address as people write it, in any usual order (`Mekelweg 8, 2628 CD Delft`, `delft, ' +
    'mekelweg 8`, `2628CD 8a`), and answers in the `/geocode/forward` shape, best first, at most `size` ' +
    `(1..${MAX_SEARCH_SIZE}, default 10). The house number anchors the reading; a text without one answers ` +
    '`[]` (type-ahead is `/autocomplete`). `lat` and `lon` go together (a focus); `country` keeps to NL or BE. ' +
    'Street and city names match in any language (`Rue Neuve 1, 1000 Bruxelles` = `Nieuwstraat 1 Brussel`); ' +
    '`lang` or Accept-Language picks the names shown, else the language the query used.',
  access: 'key',
  query: SearchQueryParams,
  ok: { description: 'The addresses, best first', schema: SearchResponse },
  backend: true,
  languages: true,
  handle: ({ query, acceptLanguage }, { freeText }) =>
    freeText.search({
      q: query.q,
      size: query.size,
      focus: focusOf(query),
      country: query.country,
      language: { lang: query.lang, acceptLanguage },
    }),
  record: (answers) => answers.map(forwardRecord),
});
