/**
 * Photon's API (https://github.com/komoot/photon#search-api): its parameters into the native search box's and
 * reverse's requests (its format: format.ts). Pure.
 */
import { z } from 'zod';
import type { SearchLayer } from '../../../schemas/requests.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE, MAX_SEARCH_SIZE } from '../../../schemas/requests.js';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import { clampedCount, corners, decimal, languageOf, latitude, longitude, text } from '../params.js';
import { atLeastOneOf, structuredCountry, structuredParameters, structuredText } from '../structuredAddress.js';

/** Photon's `layer` values and the result types of ours each names. */
const LAYERS: Record<string, SearchLayer[]> = {
  house: ['address'],
  street: ['street'],
  locality: ['suburb'],
  district: ['suburb'],
  city: ['city'],
  county: ['municipality'],
  state: ['province'],
  country: ['country'],
  other: ['postcode'],
};

const layer = z
  .string()
  .transform((value, ctx) => {
    const names = value.split(',').map((n) => n.trim().toLowerCase());
    const unknown = names.filter((n) => !LAYERS[n]);
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown layer ${unknown.join(',')}; layers are ${Object.keys(LAYERS).join(',')}`,
      });
      return z.NEVER;
    }
    return [...new Set(names.flatMap((n) => LAYERS[n]!))];
  })
  .optional();

const focusTogether = (q: { lat?: number | undefined; lon?: number | undefined }) =>
  (q.lat === undefined) === (q.lon === undefined);

/** What /api and /structured both take besides the text. */
const searchOptions = {
  limit: clampedCount(MAX_SEARCH_SIZE, 10),
  lang: z.string().max(50).optional(),
  lat: latitude.optional(),
  lon: longitude.optional(),
  bbox: corners,
  layer,
};

export const PhotonSearchQuery = z
  .looseObject({ q: text(200).regex(/[\p{L}\p{N}]/u, 'q needs at least one letter or digit'), ...searchOptions })
  .refine(focusTogether, { message: 'lat and lon go together', path: ['lat'] });
export type PhotonSearchQuery = z.infer<typeof PhotonSearchQuery>;

export const PhotonReverseQuery = z.looseObject({
  lat: latitude,
  lon: longitude,
  limit: clampedCount(MAX_REVERSE_SIZE, 1),
  lang: z.string().max(50).optional(),
  /** Kilometres, as Photon takes it. */
  radius: decimal.pipe(z.number().positive()).optional(),
});
export type PhotonReverseQuery = z.infer<typeof PhotonReverseQuery>;

const STRUCTURED = ['street', 'housenumber', 'postcode', 'city', 'district', 'county', 'state', 'countrycode'] as const;

/**
 * Photon's /structured (street, housenumber, postcode, city, district, county, state, countrycode): the same search
 * box over the text those parts make (structuredAddress.ts).
 */
export const PhotonStructuredQuery = z
  .looseObject({ ...structuredParameters(STRUCTURED), ...searchOptions })
  .refine(focusTogether, { message: 'lat and lon go together', path: ['lat'] })
  .refine(...atLeastOneOf(STRUCTURED));
export type PhotonStructuredQuery = z.infer<typeof PhotonStructuredQuery>;

/** The search box request of a structured query, or `empty` for a country the service holds no addresses of. */
export function photonStructuredRequest(
  q: PhotonStructuredQuery,
  acceptLanguage: string | undefined,
): SearchBoxRequest | 'empty' {
  const country = structuredCountry(q.countrycode);
  if (country === 'other') return 'empty';
  const text = structuredText({
    street: q.street,
    houseNumber: q.housenumber,
    postcode: q.postcode,
    city: q.city ?? q.district,
    county: q.county,
    state: q.state,
  });
  if (!text) return 'empty';
  return { ...photonSearchRequest({ ...q, q: text }, acceptLanguage), country };
}

export function photonSearchRequest(q: PhotonSearchQuery, acceptLanguage: string | undefined): SearchBoxRequest {
  return {
    q: q.q,
    size: q.limit,
    focus: q.lat !== undefined && q.lon !== undefined ? { lat: q.lat, lon: q.lon } : undefined,
    bbox: q.bbox,
    layers: q.layer,
    language: { lang: languageOf(q.lang), acceptLanguage },
  };
}

/** Photon's radius (km) as our reverse's metres, within our bound. */
export const reverseRadiusMetres = (km: number | undefined, fallback: number) =>
  km === undefined ? fallback : Math.min(km * 1000, MAX_REVERSE_RADIUS_METRES);
