/**
 * Nominatim's query parameters (https://nominatim.org/release-docs/latest/api/Search/, /Reverse/, /Lookup/) and
 * their translation into the native search box's and reverse's requests. Pure; unknown parameters are ignored as
 * Nominatim ignores them.
 */
import { z } from 'zod';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import type { SearchLayer } from '../../../schemas/requests.js';
import { MAX_SEARCH_SIZE } from '../../../schemas/requests.js';
import type { ReverseLevel } from '../place.js';
import {
  centreOf,
  clampedCount,
  corners,
  decimal,
  flag,
  idList,
  languageOf,
  latitude,
  longitude,
  text,
} from '../params.js';
import { structuredCountry, structuredText } from '../structuredAddress.js';
import { type CountryCode, countryNamed } from '../../../../core/text/countries.js';

export const NOMINATIM_FORMATS = ['json', 'jsonv2', 'geojson', 'geocodejson'] as const;
export type NominatimFormat = (typeof NOMINATIM_FORMATS)[number];
const format = z
  .enum(NOMINATIM_FORMATS, { message: `format is one of ${NOMINATIM_FORMATS.join(', ')} (xml is not offered)` })
  .default('jsonv2');

/** What every Nominatim request may say about the answer. */
const output = {
  format,
  addressdetails: flag,
  namedetails: flag,
  extratags: flag,
  'accept-language': z.string().max(200).optional(),
  polygon_geojson: flag,
  /** Degrees, as Nominatim takes it: the outline thinned by that tolerance. */
  polygon_threshold: decimal.pipe(z.number().min(0).max(1)).optional(),
};

const STRUCTURED = ['street', 'city', 'county', 'state', 'country', 'postalcode', 'amenity'] as const;

export const NominatimSearchQuery = z
  .looseObject({
    q: text(200).optional(),
    street: text(200).optional(),
    city: text(200).optional(),
    county: text(200).optional(),
    state: text(200).optional(),
    country: text(200).optional(),
    postalcode: text(200).optional(),
    amenity: text(200).optional(),
    ...output,
    limit: clampedCount(MAX_SEARCH_SIZE, 10),
    countrycodes: z
      .string()
      .regex(/^[A-Za-z]{2}(,[A-Za-z]{2})*$/, 'comma-separated ISO 3166-1 alpha-2 codes')
      .optional(),
    viewbox: corners,
    bounded: flag,
    featureType: z.string().optional(),
    featuretype: z.string().optional(),
  })
  .refine((q) => Boolean(q.q) !== STRUCTURED.some((k) => (q as Record<string, unknown>)[k]), {
    message: 'give either q or the structured parameters (street, city, postalcode, ...), not both nor neither',
    path: ['q'],
  });
export type NominatimSearchQuery = z.infer<typeof NominatimSearchQuery>;

export const NominatimReverseQuery = z.looseObject({
  lat: latitude,
  lon: longitude,
  zoom: z
    .string()
    .regex(/^\d+$/, 'expected a whole number 0..18')
    .transform(Number)
    .pipe(z.number().int().min(0).max(18))
    .default(18),
  ...output,
});
export type NominatimReverseQuery = z.infer<typeof NominatimReverseQuery>;

export const NominatimLookupQuery = z.looseObject({
  osm_ids: idList,
  ...output,
});

export const NominatimStatusQuery = z.looseObject({ format: z.enum(['text', 'json']).default('text') });

/** Nominatim's zoom (3 country ... 18 building) as the level of our reverse answer. */
export function reverseLevelOfZoom(zoom: number): ReverseLevel {
  if (zoom >= 18) return 'address';
  if (zoom >= 15) return 'street';
  if (zoom >= 13) return 'suburb';
  if (zoom >= 10) return 'city';
  if (zoom >= 8) return 'municipality';
  if (zoom >= 5) return 'province';
  return 'country';
}

const FEATURE_TYPES: Record<string, SearchLayer[]> = {
  country: ['country'],
  state: ['province'],
  city: ['city', 'municipality'],
  settlement: ['city', 'suburb', 'municipality'],
};

/**
 * The search box request, or `empty` when the filters exclude every indexed country (countrycodes=de): Nominatim
 * then answers an empty list.
 */
export function nominatimSearchRequest(
  query: NominatimSearchQuery,
  acceptLanguage: string | undefined,
): SearchBoxRequest | 'empty' {
  const wanted = new Set<CountryCode>();
  let restricted = false;
  if (query.countrycodes) {
    restricted = true;
    for (const c of query.countrycodes.split(',')) {
      const code = countryNamed(c);
      if (code) wanted.add(code);
    }
  }
  const named = query.q ? undefined : structuredCountry(query.country);
  const country = named === 'other' ? undefined : named;
  if (country) {
    restricted = true;
    if (wanted.size && !wanted.has(country)) return 'empty';
    wanted.clear();
    wanted.add(country);
  }
  if (restricted && wanted.size === 0) return 'empty';
  const q =
    query.q ??
    structuredText({
      name: query.amenity,
      street: query.street,
      postcode: query.postalcode,
      city: query.city,
      county: query.county,
      state: query.state,
      country: country ? undefined : query.country,
    });
  if (!/[\p{L}\p{N}]/u.test(q)) return 'empty';
  const featureType = (query.featureType ?? query.featuretype)?.toLowerCase();
  const layers = featureType ? FEATURE_TYPES[featureType] : undefined;
  const box = query.viewbox;
  return {
    q,
    size: query.limit,
    country: wanted.size === 1 ? [...wanted][0] : undefined,
    layers,
    bbox: box && query.bounded ? box : undefined,
    // An unbounded viewbox is a preference: its centre, as the focus that ranks equal candidates.
    focus: box && !query.bounded ? centreOf(box) : undefined,
    language: { lang: languageOf(query['accept-language']), acceptLanguage },
  };
}
