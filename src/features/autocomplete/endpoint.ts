/** GET /autocomplete: suggestions for what has been typed so far. */
import { endpointsOf } from '../../endpoints/endpoint.js';
import { AutocompleteQueryParams } from '../../schemas/requests.js';
import { AutocompleteFeatureCollection, AutocompleteResponse } from '../../schemas/responses.js';
import { resultsAsFeatures } from '../../geojson/resultFeatures.js';
import { answerAutocomplete, type AutocompleteResults, type CountryIds } from './autocompleteAnswer.js';
import { autocompleteRecords } from './autocompleteRecord.js';
import type { ShortPrefixCache } from './shortPrefixCache.js';
import type { AutocompleteRepository } from './autocompleteRepository.js';
import type { PlaceRepository } from '../places/placeRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import type { AreaKeyRepository } from '../places/areaKeyRepository.js';
import type { FreeTextSearch } from '../search/freeTextSearch.js';

/** The services GET /autocomplete uses (src/wiring/services.ts builds them). */
export interface AutocompleteServices {
  autocomplete: AutocompleteRepository;
  /** The places index: suggestions offer its places. */
  places: PlaceRepository;
  cityNames: CityNameRepository;
  /** The areas' name keys (no place search for a keystroke that names no area). */
  areaKeys: AreaKeyRepository;
  /** The answers to the first keystrokes, shared by everyone. */
  shortPrefixes: ShortPrefixCache<AutocompleteResults>;
  /** The search box's reading of an address typed in any form, for a text with a number the prefixes do not find. */
  freeText: FreeTextSearch;
  /** The countries' hierarchy ids (the Pelias door's `boundary.country` as a filter of the searches). */
  countryIds: CountryIds;
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
  handle: ({ query, acceptLanguage }, services) => answerAutocomplete(services, query, acceptLanguage),
  record: autocompleteRecords,
});
