import { z } from 'zod';
import { LANGUAGES } from '../../core/text/languages.js';
import { COUNTRY_CODES, type CountryCode } from '../../core/text/countries.js';
import { parseViewport } from '../geometry/viewport.js';
import { PLACE_TYPES } from '../../core/elasticsearch/documents.js';

const text = (max: number) => z.string().trim().max(max);

/** A focus point is both coordinates or neither (bodies and query strings alike). */
const focusIsWhole = (b: { lat?: number | undefined; lon?: number | undefined }) =>
  (b.lat === undefined) === (b.lon === undefined);
const FOCUS_TOGETHER = { message: 'lat and lon go together', path: ['lat'] };

/** The answer's language (src/language/answerLanguage.ts): one declaration for every endpoint that shows names. */
export const Lang = z
  .enum(LANGUAGES)
  .optional()
  .describe(
    'Language of the names shown (streetname, city, area name, label) where a record has names in several ' +
      'languages (Brussels: nl, fr). Default: Accept-Language, else the language the query matched in, else ' +
      'the primary name.',
  );

/** Body of POST /lookup/street and POST /geocode/forward. */
export const StreetQueryBody = z
  .object({
    streetname: text(200).optional().describe('Street name in any case, with or without diacritics or abbreviations'),
    number: z
      .union([text(20).min(1), z.number().int().positive().max(99999)])
      .transform(String)
      .describe('House number, optionally with suffix: "12", "12a", "12 A", "139A-1", "1-II"'),
    suffix: text(20).optional().describe('House number suffix (letter and/or addition), narrows the result'),
    postcode: text(10).optional().describe('Postcode, with or without space: "2628 CD", "2628cd"'),
    city: text(100).optional().describe('City name, narrows the result'),
    lat: z.number().min(-90).max(90).optional().describe('Focus point: ranks equal candidates by distance'),
    lon: z.number().min(-180).max(180).optional().describe('Focus point (with lat)'),
    lang: Lang,
  })
  .strict()
  .refine((b) => Boolean(b.streetname) || Boolean(b.postcode), {
    message: 'streetname is required (or postcode, to look up by postcode and number)',
    path: ['streetname'],
  })
  .refine(focusIsWhole, FOCUS_TOGETHER);
export type StreetQueryBody = z.infer<typeof StreetQueryBody>;

export const IdParam = z.object({ id: z.string().min(1).max(128) });

/**
 * Query schemas are strict like the bodies: a misspelt parameter (`?nmae=`) or `name[]=` is a 400 naming it
 * rather than a silently unfiltered list. Repeated parameters are refused before these run (http/validate.ts).
 */
const geometry = z
  .enum(['shape', 'centroid'])
  .default('shape')
  .describe('shape: the outline (a building footprint); centroid: one Point per feature');

/** A filter that normalises to nothing (`*`, `-`) would match every name: refused rather than ignored. */
const nameFilter = text(100)
  .regex(/[\p{L}\p{N}]/u, 'name needs at least one letter or digit')
  .optional()
  .describe('Keeps the names that match: case and accents ignored, each word by its prefix; needs a letter or digit');

const bbox = z
  .string()
  .transform((value, ctx) => {
    const parsed = parseViewport(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed;
  })
  .optional()
  .describe('Viewport minLon,minLat,maxLon,maxLat: only what intersects it');

/** Metres; a bound keeps a typo (`simplify=5000000`) from turning every boundary into a triangle. */
export const MAX_SIMPLIFY_METRES = 100_000;
const simplify = z.coerce
  .number()
  .positive()
  .max(MAX_SIMPLIFY_METRES)
  .optional()
  .describe('Douglas-Peucker tolerance in metres, shapes only');

const shapesOnly = (q: { geometry: string; simplify?: number | undefined }) =>
  q.simplify === undefined || q.geometry === 'shape';
const SHAPES_ONLY = { message: 'simplify applies to geometry=shape only', path: ['simplify'] };

/** JSON lists of areas. */
export const AreaListQuery = z.object({ name: nameFilter, bbox, lang: Lang }).strict();
export const CountryListQuery = AreaListQuery.extend({
  country_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}$/, 'ISO 3166-1 alpha-2 or alpha-3 code')
    .optional()
    .describe('ISO 3166-1 alpha-2 or alpha-3 code, any case: NL, nld'),
}).strict();

/** Boundary collections: the list filters plus the shape options. */
const shapeOptions = { geometry, simplify };
export const BoundaryListQuery = AreaListQuery.extend(shapeOptions).strict().refine(shapesOnly, SHAPES_ONLY);
export const CountryBoundaryListQuery = CountryListQuery.extend(shapeOptions).strict().refine(shapesOnly, SHAPES_ONLY);

/** A suburb's buildings: footprints are not simplified, and have no name. */
export const BuildingListQuery = z.object({ geometry, bbox }).strict();

/** One boundary. */
export const BoundaryQuery = z
  .object({ ...shapeOptions, lang: Lang })
  .strict()
  .refine(shapesOnly, SHAPES_ONLY);

export const NoQuery = z.object({}).strict();

/** The address records (by id, of a building): no parameters but the answer's language. */
export const AddressQuery = z.object({ lang: Lang }).strict();

/**
 * Query-string numbers in plain decimal notation only: `lat=` or `lat=1e1` is refused, not read as 0 or 10. One
 * rule for every endpoint that takes a point, a count or a radius in its query.
 */
const decimal = z
  .string()
  .trim()
  .regex(/^-?(\d+(\.\d*)?|\.\d+)$/, 'expected a decimal number')
  .transform(Number);
const latitude = decimal.pipe(z.number().min(-90).max(90));
const longitude = decimal.pipe(z.number().min(-180).max(180));
/** How many results: a whole number 1..max. */
const count = (max: number) =>
  z.string().regex(/^\d+$/, 'expected a whole number').transform(Number).pipe(z.number().int().min(1).max(max));
/** What a person typed: something to search for, not only punctuation. */
const typedText = (max: number) =>
  text(max)
    .min(1)
    .regex(/[\p{L}\p{N}]/u, 'q needs at least one letter or digit');
/**
 * How a result list is answered: `json` (the records) or `geojson` (a FeatureCollection of points whose
 * properties are the records; src/geojson/resultFeatures.ts). One declaration for /search, /autocomplete, /reverse.
 */
export const RESULT_FORMATS = ['json', 'geojson'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];
const format = z
  .enum(RESULT_FORMATS)
  .default('json')
  .describe(
    'json: the results as records; geojson: a FeatureCollection, one Point per result, `properties` the JSON ' +
      "record, the result's `bbox` as the feature's (application/geo+json when Accept prefers it)",
  );

/** GET /reverse. */
export const MAX_REVERSE_RADIUS_METRES = 5000;
export const MAX_REVERSE_SIZE = 50;
export const DEFAULT_REVERSE_RADIUS_METRES = 200;
export const ReverseQuery = z
  .object({
    lat: latitude.describe('Latitude, WGS84'),
    lon: longitude.describe('Longitude, WGS84'),
    size: count(MAX_REVERSE_SIZE).default(1).describe('Most addresses returned, nearest first'),
    radius: decimal
      .pipe(z.number().positive().max(MAX_REVERSE_RADIUS_METRES))
      .default(DEFAULT_REVERSE_RADIUS_METRES)
      .describe('Metres around the point in which addresses are looked for'),
    lang: Lang,
    format,
  })
  .strict();

/** GET /autocomplete: the text typed so far, how many suggestions, an optional focus (the map's centre). */
export const AutocompleteQueryParams = z
  .object({
    // Not typedText: a search box sends the first keystroke of `'t Zand`; text without a letter or digit is [].
    q: text(100).min(1).describe('What was typed so far: "Mek", "Mekelweg 8", "2628 c", "Wetstraat 16 bus"'),
    size: count(20).default(10).describe('Most suggestions'),
    lat: latitude.optional().describe('Focus (with lon): ranks equal matches by distance'),
    lon: longitude.optional().describe('Focus (with lat)'),
    lang: Lang,
    format,
  })
  .strict()
  .refine(focusIsWhole, FOCUS_TOGETHER);
export type AutocompleteQueryParams = z.infer<typeof AutocompleteQueryParams>;

/** What the search box answers: an address or one of the place types of the places index. */
export const SEARCH_LAYERS = ['address', ...PLACE_TYPES] as const;
export type SearchLayer = (typeof SEARCH_LAYERS)[number];
/** `layers=street,city`: any subset; an unknown name is refused (naming it) rather than ignored. */
const layers = z
  .string()
  .transform((value, ctx) => {
    const names = value
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean);
    const unknown = names.filter((n) => !(SEARCH_LAYERS as readonly string[]).includes(n));
    if (!names.length || unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown layer ${unknown.join(',') || '(none)'}; layers are ${SEARCH_LAYERS.join(',')}`,
      });
      return z.NEVER;
    }
    return [...new Set(names)] as SearchLayer[];
  })
  .optional()
  .describe(`Only these result types, comma-separated: any of ${SEARCH_LAYERS.join(', ')}`);
const within = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe('An area id (as /cities, /municipalities, ... list them): only results inside that area');

/** GET /search: free text, best first, with an optional focus and country. */
export const MAX_SEARCH_SIZE = 50;
export const SearchQueryParams = z
  .object({
    q: typedText(200).describe(
      'Whatever a person types: "Delft", "Mekelweg Delft", "2628CD", "Mekelweg 8, 2628 CD Delft", "Wetstraat 16 bus 3"',
    ),
    layers,
    bbox: bbox.describe('minLon,minLat,maxLon,maxLat: only results whose point lies inside'),
    within,
    size: count(MAX_SEARCH_SIZE).default(10).describe('Most results, best first'),
    lat: latitude.optional().describe('Focus (with lon): ranks equal candidates by distance'),
    lon: longitude.optional().describe('Focus (with lat)'),
    country: z
      .enum([...COUNTRY_CODES, ...COUNTRY_CODES.map((c) => c.toLowerCase())])
      .transform((c) => c.toUpperCase() as CountryCode)
      .optional()
      .describe("Only this country's addresses and postcode shapes"),
    lang: Lang,
    format,
  })
  .strict()
  .refine(focusIsWhole, FOCUS_TOGETHER);

/** POST /geocode/batch: forward bodies, each validated on its own so one bad item fails only itself. */
export const MAX_BATCH_ITEMS = 1000;
export const BatchBody = z
  .object({
    items: z
      .array(z.unknown())
      .min(1)
      .max(MAX_BATCH_ITEMS)
      .describe(`Up to ${MAX_BATCH_ITEMS} POST /geocode/forward bodies; answered in the same order`),
  })
  .strict();
