/**
 * Nominatim's API under /nominatim/ (search, reverse, lookup, status): each a translation of Nominatim's parameters
 * into the native search box's and reverse's requests and of their results into Nominatim's formats.
 */
import { dialectRoute } from '../params.js';
import { z } from 'zod';
import { endpointsOf } from '../../../endpoints/endpoint.js';
import { HeavyJson } from '../../../endpoints/heavyJson.js';
import { ApiError, errorText } from '../../../http/errors.js';
import { DEFAULT_REVERSE_RADIUS_METRES } from '../../../schemas/requests.js';
import { addressPlaces } from '../addressLookup.js';
import { outlinesOf } from './outlines.js';
import type { AreaRepository } from '../../hierarchy/areaRepository.js';
import type { AttributionRepository } from '../../../indexes/attribution.js';
import type { AddressRepository } from '../../address/addressRepository.js';
import { answerReverse } from '../../reverse/reverseAnswer.js';
import type { ReverseServices } from '../../reverse/endpoint.js';
import type { SearchServices } from '../../search/endpoint.js';
import { type HealthServices, readiness } from '../../service/health.js';
import { reversePlace } from '../place.js';
import { dialectSearch } from '../dialectSearch.js';
import { languageOf } from '../params.js';
import { NominatimError, nominatimError, nominatimResults, nominatimReverse } from './format.js';
import {
  NominatimLookupQuery,
  NominatimReverseQuery,
  NominatimSearchQuery,
  NominatimStatusQuery,
  nominatimSearchRequest,
  reverseLevelOfZoom,
} from './nominatimQuery.js';

/** The services the Nominatim dialect uses: the native search box, reverse and address records. */
export interface NominatimServices extends SearchServices, ReverseServices, HealthServices {
  addresses: AddressRepository;
  /** The areas' outlines, for polygon_geojson. */
  areas: AreaRepository;
  /** Whom the data comes from: each result's `licence`. */
  attribution: AttributionRepository;
}

const endpoint = endpointsOf<NominatimServices>();

const common = dialectRoute({ schema: NominatimError, body: (e) => nominatimError(e.status, errorText(e)) });

/** Nominatim's answers, loosely: a list of places, one place, a FeatureCollection or `{"error": ...}`. */
const NominatimAnswer = z.union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())]);

export const nominatimSearchEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/nominatim/search',
  summary: 'Nominatim: search',
  description:
    "Nominatim's /search over the native search box: free text `q`, or the structured `street`, `city`, " +
    '`postalcode`, `county`, `state`, `country`; `format` json, jsonv2 (default), geojson or geocodejson; `limit`, ' +
    '`addressdetails`, `namedetails`, `countrycodes`, `viewbox` with `bounded`, `accept-language`, `featureType`, ' +
    '`polygon_geojson` (the outline of an area result; `polygon_threshold` in degrees thins it). ' +
    'Other parameters are ignored.',
  query: NominatimSearchQuery,
  ok: { description: "Places in Nominatim's format", schema: NominatimAnswer },
  handle: async ({ query, acceptLanguage }, { searchBox, areas, attribution }) => {
    const request = nominatimSearchRequest(query, acceptLanguage);
    const [places, sources] = await Promise.all([dialectSearch(searchBox, request), attribution.sources()]);
    const options = {
      format: query.format,
      addressdetails: query.addressdetails ?? false,
      namedetails: query.namedetails ?? false,
      outlines: query.polygon_geojson ? await outlinesOf(areas, places, query.polygon_threshold) : undefined,
      attribution: sources,
    };
    const answer = nominatimResults(places, options, request === 'empty' ? '' : request.q);
    // Whole outlines (up to `limit` of them) make a boundary answer's bytes: they go out under the same limits.
    return options.outlines ? new HeavyJson(answer) : answer;
  },
});

export const nominatimReverseEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/nominatim/reverse',
  summary: 'Nominatim: reverse',
  description:
    "Nominatim's /reverse over the native reverse: `lat`, `lon`, `zoom` (18 the nearest address within " +
    `${DEFAULT_REVERSE_RADIUS_METRES} m, 15-17 its street, 13-14 suburb, 10-12 city, 8-9 municipality, 5-7 ` +
    'province, 0-4 country; the next larger level where there is none), `format`, `addressdetails` (default 1), ' +
    '`namedetails`, `accept-language`. Nothing there: `{"error": "Unable to geocode"}`, as Nominatim answers.',
  query: NominatimReverseQuery,
  ok: { description: "One place in Nominatim's format, or its error object", schema: NominatimAnswer },
  handle: async ({ query, acceptLanguage }, services) => {
    const { lat, lon } = query;
    const language = { lang: languageOf(query['accept-language']), acceptLanguage };
    const [answer, sources] = await Promise.all([
      answerReverse(services, { lat, lon, radius: DEFAULT_REVERSE_RADIUS_METRES, size: 1, language }),
      services.attribution.sources(),
    ]);
    const place = reversePlace(answer, reverseLevelOfZoom(query.zoom), { lat, lon });
    const options = {
      format: query.format,
      addressdetails: query.addressdetails ?? true,
      namedetails: query.namedetails ?? false,
      attribution: sources,
    };
    return nominatimReverse(place, options);
  },
});

export const nominatimLookupEndpoint = endpoint({
  ...common,
  method: 'get',
  path: '/nominatim/lookup',
  summary: 'Nominatim: lookup',
  description:
    "Nominatim's /lookup for our address ids: `osm_ids` is a comma-separated list of the `place_id`s our answers " +
    'carry (up to 50); ids that name no address are left out, as Nominatim leaves out what it does not know.',
  query: NominatimLookupQuery,
  ok: { description: "Addresses in Nominatim's format", schema: NominatimAnswer },
  handle: async ({ query }, { addresses, attribution }) => {
    const [places, sources] = await Promise.all([addressPlaces(addresses, query.osm_ids), attribution.sources()]);
    const options = {
      format: query.format,
      addressdetails: query.addressdetails ?? false,
      namedetails: query.namedetails ?? false,
      attribution: sources,
    };
    return nominatimResults(places, options);
  },
});

export const nominatimStatusEndpoint = endpoint({
  ...common,
  access: 'open',
  keyInQuery: false,
  languages: false,
  method: 'get',
  path: '/nominatim/status',
  summary: 'Nominatim: status',
  description:
    'Nominatim\'s /status: `OK` (`format=json`: `{"status": 0, "message": "OK"}`) while Elasticsearch ' +
    "answers with every index loaded, else a 503 in Nominatim's error shape.",
  query: NominatimStatusQuery,
  ok: { description: '`OK` (`format=json`: the JSON object)', schema: z.string(), mediaType: 'text/plain' },
  serve: (services) => async (ctx) => {
    const [state] = await readiness(services);
    if (state !== 'ok') throw new ApiError(503, 'backend_unavailable', `Elasticsearch: ${state}`);
    ctx.body = ctx.query.format === 'json' ? { status: 0, message: 'OK' } : 'OK';
  },
});

export const NOMINATIM_ENDPOINTS = [
  nominatimSearchEndpoint,
  nominatimReverseEndpoint,
  nominatimLookupEndpoint,
  nominatimStatusEndpoint,
];
