/**
 * Pelias' query parameters (https://github.com/pelias/documentation: search, autocomplete, reverse, place) and
 * their translation into the native search box's, autocomplete's and reverse's requests. Pure; parameters we have
 * no use for (`sources`, `boundary.gid`) are ignored.
 */
import { z } from 'zod';
import type { SearchLayer } from '../../../schemas/requests.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE, MAX_SEARCH_SIZE } from '../../../schemas/requests.js';
import type { SearchBoxRequest } from '../../search/searchBox.js';
import type { Box } from '../params.js';
import { clampedCount, decimal, idList, languageOf, latitude, longitude, text } from '../params.js';
import type { DialectPlace, PlaceKind } from '../place.js';
import { atLeastOneOf, structuredCountry, structuredParameters, structuredText } from '../structuredAddress.js';
import { type CountryCode, countryNamed } from '../../../../core/text/countries.js';
import { type LatLon, metresBetween } from '../../../../core/geo/distance.js';
import { insideViewport } from '../../../geometry/viewport.js';

/** Pelias' layers and the kinds of ours each names (`coarse`: every area). */
export const PELIAS_LAYER_OF: Record<PlaceKind, string> = {
  address: 'address',
  street: 'street',
  postcode: 'postalcode',
  suburb: 'neighbourhood',
  city: 'locality',
  municipality: 'localadmin',
  province: 'region',
  country: 'country',
};
const AREAS: PlaceKind[] = ['suburb', 'city', 'municipality', 'province', 'country'];
const KINDS_OF: Record<string, PlaceKind[]> = {
  ...Object.fromEntries(Object.entries(PELIAS_LAYER_OF).map(([kind, layer]) => [layer, [kind as PlaceKind]])),
  coarse: AREAS,
  county: ['municipality'],
  borough: ['suburb'],
  macroregion: ['province'],
};

const layers = z
  .string()
  .transform((value, ctx) => {
    const names = value.split(',').map((n) => n.trim().toLowerCase());
    const unknown = names.filter((n) => !KINDS_OF[n]);
    if (unknown.length) {
      ctx.addIssue({ code: 'custom', message: `'${unknown.join(',')}' is an invalid layers parameter` });
      return z.NEVER;
    }
    return [...new Set(names.flatMap((n) => KINDS_OF[n]!))];
  })
  .optional();

const countries = z
  .string()
  .regex(/^[A-Za-z]{2,3}(,[A-Za-z]{2,3})*$/, 'ISO 3166-1 alpha-2 or alpha-3 codes, comma-separated')
  .transform((v) => v.split(',').map((c) => countryNamed(c) ?? 'other'))
  .optional();

const km = decimal.pipe(z.number().positive());

const options = {
  size: clampedCount(MAX_SEARCH_SIZE, 10),
  lang: z.string().max(50).optional(),
  layers,
  'focus.point.lat': latitude.optional(),
  'focus.point.lon': longitude.optional(),
  'boundary.rect.min_lat': latitude.optional(),
  'boundary.rect.min_lon': longitude.optional(),
  'boundary.rect.max_lat': latitude.optional(),
  'boundary.rect.max_lon': longitude.optional(),
  'boundary.circle.lat': latitude.optional(),
  'boundary.circle.lon': longitude.optional(),
  'boundary.circle.radius': km.optional(),
  'boundary.country': countries,
};

type Options = z.infer<z.ZodObject<typeof options>>;

const RECT = [
  'boundary.rect.min_lat',
  'boundary.rect.min_lon',
  'boundary.rect.max_lat',
  'boundary.rect.max_lon',
] as const;
const together = (keys: readonly string[]) => (q: Record<string, unknown>) =>
  keys.every((k) => q[k] === undefined) || keys.every((k) => q[k] !== undefined);

const withOptions = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z
    .looseObject({ ...options, ...shape })
    .refine(together(['focus.point.lat', 'focus.point.lon']), {
      message: 'focus.point.lat and focus.point.lon go together',
      path: ['focus.point.lat'],
    })
    .refine(together(RECT), {
      message: 'boundary.rect needs all four of its parameters',
      path: ['boundary.rect.min_lat'],
    })
    .refine(together(['boundary.circle.lat', 'boundary.circle.lon']), {
      message: 'boundary.circle.lat and boundary.circle.lon go together',
      path: ['boundary.circle.lat'],
    });

const textParameter = text(200).regex(/[\p{L}\p{N}]/u, 'text needs at least one letter or digit');
export const PeliasSearchQuery = withOptions({ text: textParameter });
export type PeliasSearchQuery = z.infer<typeof PeliasSearchQuery>;

const STRUCTURED = [
  'address',
  'neighbourhood',
  'borough',
  'locality',
  'county',
  'region',
  'postalcode',
  'country',
] as const;

/** Pelias' /v1/search/structured: the address parts, at least one of them, and the search's options. */
export const PeliasStructuredQuery = withOptions(structuredParameters(STRUCTURED)).refine(...atLeastOneOf(STRUCTURED));
export type PeliasStructuredQuery = z.infer<typeof PeliasStructuredQuery>;

/**
 * The structured parts as the one text the search box reads (structuredAddress.ts); `country` as boundary.country
 * (a code or a name in any of our languages), `empty` for a country the service holds no addresses of.
 */
export function peliasStructuredRequest(
  q: PeliasStructuredQuery,
  acceptLanguage: string | undefined,
): SearchBoxRequest | 'empty' {
  const country = structuredCountry(q.country);
  if (country === 'other') return 'empty';
  const text = structuredText({
    street: q.address,
    postcode: q.postalcode,
    city: q.locality ?? q.borough ?? q.neighbourhood,
    county: q.county,
    state: q.region,
  });
  if (!text) return 'empty';
  const boundary = country ? [country] : q['boundary.country'];
  return peliasSearchRequest({ ...q, text, 'boundary.country': boundary }, acceptLanguage);
}

export const PeliasReverseQuery = z.looseObject({
  'point.lat': latitude,
  'point.lon': longitude,
  size: clampedCount(MAX_REVERSE_SIZE, 10),
  lang: z.string().max(50).optional(),
  layers,
  'boundary.circle.radius': km.optional(),
});
export type PeliasReverseQuery = z.infer<typeof PeliasReverseQuery>;

export const PeliasPlaceQuery = z.looseObject({
  ids: idList,
  lang: z.string().max(50).optional(),
});

/** The box the request keeps to: boundary.rect, else the circle's envelope (the circle itself: withinCircle). */
function boxOf(q: Options): Box | undefined {
  const [lat1, lon1, lat2, lon2] = RECT.map((k) => q[k]);
  if (lat1 !== undefined && lon1 !== undefined && lat2 !== undefined && lon2 !== undefined) {
    return {
      minLat: Math.min(lat1, lat2),
      maxLat: Math.max(lat1, lat2),
      minLon: Math.min(lon1, lon2),
      maxLon: Math.max(lon1, lon2),
    };
  }
  const lat = q['boundary.circle.lat'];
  const lon = q['boundary.circle.lon'];
  if (lat === undefined || lon === undefined) return undefined;
  const radius = q['boundary.circle.radius'] ?? 50;
  const dLat = radius / 111.32;
  const dLon = radius / (111.32 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  return {
    minLat: Math.max(lat - dLat, -90),
    maxLat: Math.min(lat + dLat, 90),
    minLon: Math.max(lon - dLon, -180),
    maxLon: Math.min(lon + dLon, 180),
  };
}

/** Kilometres between two points (great circle). */
export const distanceKm = (a: LatLon, b: LatLon): number => metresBetween(a, b) / 1000;

/** What a Pelias request keeps to, checked on our results: the kinds, countries, box and circle it names. */
export function keepsTo(q: Options): (p: DialectPlace) => boolean {
  const box = boxOf(q);
  const lat = q['boundary.circle.lat'];
  const lon = q['boundary.circle.lon'];
  const circle =
    lat !== undefined && lon !== undefined ? { lat, lon, km: q['boundary.circle.radius'] ?? 50 } : undefined;
  const countries = q['boundary.country'];
  return (p) =>
    (!q.layers || q.layers.includes(p.kind)) &&
    (!countries || countries.includes(p.countryCode as CountryCode)) &&
    insideViewport(box, p.lon, p.lat) &&
    (!circle || distanceKm(circle, p) <= circle.km);
}

/**
 * The bounds the type-ahead's searches keep to: the countries (`boundary.country`, the indexed ones), the box
 * (`boundary.rect`, else the circle's envelope); `nowhere` when boundary.country names none of the indexed countries.
 */
export function autocompleteBounds(
  q: Options,
): { countries?: CountryCode[]; bbox?: [number, number, number, number] } | 'nowhere' {
  const asked = q['boundary.country'];
  const countries = asked?.filter((c): c is CountryCode => c !== 'other');
  if (countries && countries.length === 0) return 'nowhere';
  const box = boxOf(q);
  return {
    ...(countries ? { countries: [...new Set(countries)] } : {}),
    ...(box ? { bbox: [box.minLon, box.minLat, box.maxLon, box.maxLat] } : {}),
  };
}

/** The search box request, or `empty` when boundary.country names none of the indexed countries. */
export function peliasSearchRequest(
  q: PeliasSearchQuery,
  acceptLanguage: string | undefined,
): SearchBoxRequest | 'empty' {
  const wanted = new Set(q['boundary.country']?.filter((c) => c !== 'other'));
  if (q['boundary.country'] && wanted.size === 0) return 'empty';
  const lat = q['focus.point.lat'];
  const lon = q['focus.point.lon'];
  return {
    q: q.text,
    size: q.size,
    focus: lat !== undefined && lon !== undefined ? { lat, lon } : undefined,
    country: wanted.size === 1 ? [...wanted][0] : undefined,
    layers: q.layers?.map((k): SearchLayer => k),
    bbox: boxOf(q),
    language: { lang: languageOf(q.lang), acceptLanguage },
  };
}

/** Pelias' reverse radius (km) as our reverse's metres, within our bound. */
export const reverseRadiusMetres = (km: number | undefined, fallback: number) =>
  km === undefined ? fallback : Math.min(km * 1000, MAX_REVERSE_RADIUS_METRES);
