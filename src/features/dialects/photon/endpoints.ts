/** Photon's API under /photon/ (api, reverse): translations over the native search box and reverse. */
import { dialectRoute } from '../params.js';
import { z } from 'zod';
import { endpointsOf } from '../../../endpoints/endpoint.js';
import { errorText } from '../../../http/errors.js';
import { DEFAULT_REVERSE_RADIUS_METRES } from '../../../schemas/requests.js';
import { answerReverse } from '../../reverse/reverseAnswer.js';
import type { ReverseServices } from '../../reverse/endpoint.js';
import type { SearchServices } from '../../search/endpoint.js';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import { reverseAddresses, reversePlace } from '../place.js';
import { dialectSearch } from '../dialectSearch.js';
import { languageOf } from '../params.js';
import { photonCollection, PhotonError } from './format.js';
import {
  PhotonReverseQuery,
  PhotonSearchQuery,
  photonSearchRequest,
  PhotonStructuredQuery,
  photonStructuredRequest,
  reverseRadiusMetres,
} from './photonQuery.js';

export interface PhotonServices extends SearchServices, ReverseServices {}

const endpoint = endpointsOf<PhotonServices>();

const common = dialectRoute({ schema: PhotonError, body: (e) => ({ message: errorText(e) }) });

const PhotonCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.record(z.string(), z.unknown())),
});

/** The search box's answer to a Photon search request, as Photon's features. */
async function photonSearch(searchBox: SearchServices['searchBox'], request: SearchBoxRequest | 'empty') {
  return photonCollection(await dialectSearch(searchBox, request));
}

export const photonSearchEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/photon/api',
  summary: 'Photon: search',
  description:
    "Photon's /api over the native search box: `q`, `limit`, `lang`, `lat`/`lon` (a focus), `bbox` " +
    '(minLon,minLat,maxLon,maxLat: a filter), `layer` (house, street, district, locality, city, county, state, ' +
    "country, other; comma-separated). A GeoJSON FeatureCollection with Photon's properties (`name`, " +
    '`housenumber`, `street`, `postcode`, `district`, `city`, `county`, `state`, `country`, `countrycode`, ' +
    '`type`, `extent` for areas). Other parameters are ignored.',
  query: PhotonSearchQuery,
  ok: { description: 'Photon features', schema: PhotonCollection },
  handle: ({ query, acceptLanguage }, { searchBox }) =>
    photonSearch(searchBox, photonSearchRequest(query, acceptLanguage)),
});

export const photonStructuredEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/photon/structured',
  summary: 'Photon: structured search',
  description:
    "Photon's /structured over the native search box: `street` (with or without its number), `housenumber`, " +
    '`postcode`, `city`, `district`, `county`, `state`, `countrycode` (a code or a name, in any of our languages), ' +
    'read as one address text by the same reader as `q`; `limit`, `lang`, `lat`/`lon`, `bbox`, `layer` as /api.',
  query: PhotonStructuredQuery,
  ok: { description: 'Photon features', schema: PhotonCollection },
  handle: ({ query, acceptLanguage }, { searchBox }) =>
    photonSearch(searchBox, photonStructuredRequest(query, acceptLanguage)),
});

export const photonReverseEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/photon/reverse',
  summary: 'Photon: reverse',
  description:
    "Photon's /reverse over the native reverse: `lat`, `lon`, `limit`, `lang`, `radius` (km, at most 5): the " +
    'nearest addresses, else the smallest area containing the point; none: no features.',
  query: PhotonReverseQuery,
  ok: { description: 'Photon features', schema: PhotonCollection },
  handle: async ({ query, acceptLanguage }, services) => {
    const { lat, lon, limit } = query;
    const radius = reverseRadiusMetres(query.radius, DEFAULT_REVERSE_RADIUS_METRES);
    const language = { lang: languageOf(query.lang), acceptLanguage };
    const answer = await answerReverse(services, { lat, lon, radius, size: limit, language });
    const addresses = reverseAddresses(answer);
    const area = addresses.length ? undefined : reversePlace(answer, 'suburb', { lat, lon });
    return photonCollection(area ? [area] : addresses);
  },
});

export const PHOTON_ENDPOINTS = [photonSearchEndpoint, photonStructuredEndpoint, photonReverseEndpoint];
