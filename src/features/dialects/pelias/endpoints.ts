/**
 * Pelias' API under /pelias/v1/ (search, autocomplete, reverse, place): translations over the native search box,
 * autocomplete, reverse and address records.
 */
import { dialectRoute } from '../params.js';
import { endpointsOf } from '../../../endpoints/endpoint.js';
import { errorText } from '../../../http/errors.js';
import { DEFAULT_REVERSE_RADIUS_METRES } from '../../../schemas/requests.js';
import { addressPlaces } from '../addressLookup.js';
import type { AddressRepository } from '../../address/addressRepository.js';
import type { AttributionRepository } from '../../../indexes/attribution.js';
import { answerAutocomplete } from '../../autocomplete/autocompleteAnswer.js';
import type { AutocompleteServices } from '../../autocomplete/endpoint.js';
import { answerReverse } from '../../reverse/reverseAnswer.js';
import type { ReverseServices } from '../../reverse/endpoint.js';
import type { SearchServices } from '../../search/endpoint.js';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import { type DialectPlace, reverseAddresses, reversePlace, suggestionPlace } from '../place.js';
import { dialectSearch } from '../dialectSearch.js';
import { languageOf } from '../params.js';
import { idOfGid, PeliasCollection, peliasCollection, PeliasError, peliasError } from './format.js';
import {
  autocompleteBounds,
  keepsTo,
  PeliasPlaceQuery,
  PeliasReverseQuery,
  PeliasSearchQuery,
  peliasSearchRequest,
  PeliasStructuredQuery,
  peliasStructuredRequest,
  reverseRadiusMetres,
} from './peliasQuery.js';

export interface PeliasServices extends SearchServices, AutocompleteServices, ReverseServices {
  addresses: AddressRepository;
  /** Whom the data comes from: `geocoding.attribution`. */
  attribution: AttributionRepository;
}

const endpoint = endpointsOf<PeliasServices>();

const common = {
  ...dialectRoute({ schema: PeliasError, body: (e) => peliasError(errorText(e)) }),
  ok: { description: "Pelias' GeoJSON", schema: PeliasCollection },
} as const;

/** The parameters echoed in `geocoding.query`, as Pelias does (the key never among them: taken out before). */
const echo = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));

const FILTERS =
  '`size`, `focus.point.lat`/`lon`, `boundary.rect.*`, `boundary.circle.*` (km), `boundary.country` ' +
  '(alpha-2 or alpha-3), `layers` (address, street, postalcode, neighbourhood, locality, localadmin, region, ' +
  'country, coarse), `lang`; `sources` and other parameters are ignored.';

/** The search box's answer to a Pelias search request, in Pelias' GeoJSON, kept to the query's filters. */
async function peliasSearch(
  { searchBox, attribution }: PeliasServices,
  request: SearchBoxRequest | 'empty',
  query: PeliasSearchQuery | PeliasStructuredQuery,
) {
  const [places, sources] = await Promise.all([dialectSearch(searchBox, request), attribution.sources()]);
  return peliasCollection(places.filter(keepsTo(query)), echo(query), sources);
}

export const peliasSearchEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/pelias/v1/search',
  summary: 'Pelias: search',
  description: `Pelias' /v1/search over the native search box: \`text\`, ${FILTERS}`,
  query: PeliasSearchQuery,
  handle: ({ query, acceptLanguage }, services) =>
    peliasSearch(services, peliasSearchRequest(query, acceptLanguage), query),
});

export const peliasStructuredEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/pelias/v1/search/structured',
  summary: 'Pelias: structured search',
  description:
    "Pelias' /v1/search/structured over the native search box: `address` (the street with its number, first or " +
    'last), `postalcode`, `locality` (else `borough`, `neighbourhood`), `county`, `region`, `country` (a code or a ' +
    `name), read as one address text by the same reader as /v1/search's \`text\`; ${FILTERS}`,
  query: PeliasStructuredQuery,
  handle: ({ query, acceptLanguage }, services) =>
    peliasSearch(services, peliasStructuredRequest(query, acceptLanguage), query),
});

export const peliasAutocompleteEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/pelias/v1/autocomplete',
  summary: 'Pelias: autocomplete',
  description:
    "Pelias' /v1/autocomplete over the native autocomplete: `text`, " +
    `${FILTERS} \`layers\`, \`boundary.country\` and \`boundary.rect\` (a circle as its box, then kept to the ` +
    'circle) are part of the searches: `size` suggestions inside come back where they exist.',
  query: PeliasSearchQuery,
  handle: async ({ query, acceptLanguage }, services) => {
    const lang = languageOf(query.lang);
    const bounds = autocompleteBounds(query);
    if (bounds === 'nowhere') return peliasCollection([], echo(query), await services.attribution.sources());
    const request = {
      q: query.text,
      size: Math.min(query.size, 20),
      lat: query['focus.point.lat'],
      lon: query['focus.point.lon'],
      lang,
      layers: query.layers,
      ...bounds,
    };
    const [suggestions, sources] = await Promise.all([
      answerAutocomplete(services, request, acceptLanguage),
      services.attribution.sources(),
    ]);
    // The countries were asked of the searches (a street suggestion carries none to check); the circle is kept to.
    const kept = suggestions.map(suggestionPlace).filter(keepsTo({ ...query, 'boundary.country': undefined }));
    return peliasCollection(kept, echo(query), sources);
  },
});

const AREA_LEVELS = ['suburb', 'city', 'municipality', 'province', 'country'] as const;

export const peliasReverseEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/pelias/v1/reverse',
  summary: 'Pelias: reverse',
  description:
    "Pelias' /v1/reverse over the native reverse: `point.lat`, `point.lon`, `size`, `layers`, `lang`, " +
    '`boundary.circle.radius` (km, at most 5): the nearest addresses, then the areas containing the point, ' +
    'smallest first.',
  query: PeliasReverseQuery,
  handle: async ({ query, acceptLanguage }, services) => {
    const lat = query['point.lat'];
    const lon = query['point.lon'];
    const radius = reverseRadiusMetres(query['boundary.circle.radius'], DEFAULT_REVERSE_RADIUS_METRES);
    const language = { lang: languageOf(query.lang), acceptLanguage };
    const [answer, sources] = await Promise.all([
      answerReverse(services, { lat, lon, radius, size: query.size, language }),
      services.attribution.sources(),
    ]);
    const areas = AREA_LEVELS.map((level) => reversePlace(answer, level, { lat, lon }));
    const places = [...reverseAddresses(answer), ...areas].filter(
      (p, i, all): p is DialectPlace => p !== undefined && all.findIndex((o) => o?.id === p.id) === i,
    );
    const kept = places.filter((p) => !query.layers || query.layers.includes(p.kind)).slice(0, query.size);
    return peliasCollection(kept, echo(query), sources);
  },
});

export const peliasPlaceEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/pelias/v1/place',
  summary: 'Pelias: place',
  description:
    "Pelias' /v1/place for the addresses our answers name: `ids` is a comma-separated list of `gid`s " +
    '(`geocoder:address:<id>`, up to 50); other ids are left out.',
  query: PeliasPlaceQuery,
  handle: async ({ query }, { addresses, attribution }) => {
    const ids = query.ids.flatMap((gid) => {
      const parsed = idOfGid(gid);
      return parsed?.layer === 'address' ? [parsed.id] : [];
    });
    const [places, sources] = await Promise.all([addressPlaces(addresses, ids), attribution.sources()]);
    return peliasCollection(places, echo(query), sources);
  },
});

export const PELIAS_ENDPOINTS = [
  peliasSearchEndpoint,
  peliasStructuredEndpoint,
  peliasAutocompleteEndpoint,
  peliasReverseEndpoint,
  peliasPlaceEndpoint,
];
