/**
 * Photon's API (https://github.com/komoot/photon#search-api): its parameters into the native search box's and
 * reverse's requests, our places into its GeoJSON features. Pure.
 */
import { z } from 'zod';
import type { SearchLayer } from '../../../schemas/requests.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE, MAX_SEARCH_SIZE } from '../../../schemas/requests.js';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import type { DialectPlace, PlaceKind } from '../place.js';
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

const TYPES: Record<PlaceKind, { type: string; key: string; value: string }> = {
  address: { type: 'house', key: 'place', value: 'house' },
  street: { type: 'street', key: 'highway', value: 'residential' },
  postcode: { type: 'other', key: 'place', value: 'postcode' },
  suburb: { type: 'district', key: 'place', value: 'suburb' },
  city: { type: 'city', key: 'place', value: 'city' },
  municipality: { type: 'county', key: 'boundary', value: 'administrative' },
  province: { type: 'state', key: 'boundary', value: 'administrative' },
  country: { type: 'country', key: 'place', value: 'country' },
};

/** One place as a Photon feature: its properties, and `extent` [minLon, maxLat, maxLon, minLat] for areas. */
export function photonFeature(p: DialectPlace) {
  const t = TYPES[p.kind];
  const [minLon, minLat, maxLon, maxLat] = p.bbox;
  const fields: Record<string, string> = {
    name: p.kind === 'address' ? '' : p.name,
    housenumber: p.housenumber,
    street: p.street,
    postcode: p.postcode,
    district: p.suburb,
    city: p.city,
    county: p.municipality === p.city ? '' : p.municipality,
    state: p.province,
    country: p.country,
    countrycode: p.countryCode,
  };
  const hasExtent = minLon !== maxLon || minLat !== maxLat;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
    properties: {
      id: p.id,
      osm_key: t.key,
      osm_value: t.value,
      type: t.type,
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v)),
      ...(hasExtent ? { extent: [minLon, maxLat, maxLon, minLat] } : {}),
    },
  };
}

export const photonCollection = (places: readonly DialectPlace[]) => ({
  type: 'FeatureCollection',
  features: places.map(photonFeature),
});

/** Photon's error body. */
export const PhotonError = z.object({ message: z.string() });
