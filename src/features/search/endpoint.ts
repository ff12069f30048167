/** GET /search: the one search box, addresses and places best first. */
import { endpointsOf } from '../../endpoints/endpoint.js';
import { MAX_SEARCH_SIZE, SearchQueryParams } from '../../schemas/requests.js';
import { SearchFeatureCollection, SearchResponse } from '../../schemas/responses.js';
import { resultsAsFeatures } from '../../geojson/resultFeatures.js';
import { focusOf } from '../../geometry/focus.js';
import type { SearchBox } from './searchBox.js';
import { searchBoxRecords } from './searchRecords.js';

/** The services GET /search uses (src/wiring/services.ts builds them). */
export interface SearchServices {
  /** Addresses and places, best first. */
  searchBox: SearchBox;
}

export const searchEndpoint = endpointsOf<SearchServices>()({
  method: 'get',
  path: '/search',
  tag: 'Geocoding',
  summary: 'Search box: addresses and places',
  description:
    'Answers whatever a person types, best first, at most `size` ' +
    `(1..${MAX_SEARCH_SIZE}, default 10): an address as people write it, in any usual order (\`Mekelweg 8, ` +
    '2628 CD Delft`, `delft, mekelweg 8`, `Wetstraat 16 bus 3, 1040 Etterbeek`), a street (`Mekelweg Delft`), a ' +
    'postcode (`2628CD`, `1050`), a city, suburb, municipality, province or country (`Delft`, `Elsene`, ' +
    '`Zuid-Holland`). Each result has a `type`; places carry a `bbox`, areas their hierarchy `id`. An address ' +
    'read with confidence (its house number exists) comes first; then places, an exact name before a prefix ' +
    'before a typo, a larger place before a smaller one of the same name; then weaker address readings. ' +
    '`layers`, `country`, `bbox` and `within` keep to some results; `lat` and `lon` together are a focus. ' +
    'Street and city names match in any language (`Rue Neuve 1, 1000 Bruxelles` = `Nieuwstraat 1 Brussel`); ' +
    '`lang` or Accept-Language picks the names shown, else the language the query used. `format=geojson`: ' +
    'the same results as a FeatureCollection of points.',
  access: 'key',
  query: SearchQueryParams,
  ok: {
    description: 'Addresses and places, best first',
    schema: SearchResponse,
    geojsonFormat: { schema: SearchFeatureCollection, shape: resultsAsFeatures },
  },
  backend: true,
  languages: true,
  handle: ({ query, acceptLanguage }, { searchBox }) =>
    searchBox.search({
      q: query.q,
      size: query.size,
      focus: focusOf(query),
      country: query.country,
      layers: query.layers,
      bbox: query.bbox,
      within: query.within,
      language: { lang: query.lang, acceptLanguage },
    }),
  record: searchBoxRecords,
});
