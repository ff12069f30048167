import { z } from 'zod';
import { AREA_LEVELS, PARENT_LEVELS, type ParentLevel } from '../../core/elasticsearch/documents.js';

const LocalisedNames = z.record(z.string(), z.string());
/** Present only where the street or the city has names in several languages (Brussels). */
const AddressNames = z
  .object({ streetname: LocalisedNames.optional(), city: LocalisedNames.optional() })
  .optional()
  .describe("The street's and the city's names per language, where there is more than one");

/**
 * Every documented field is always present; strings stay strings ("" when the value is absent). `names` is the
 * one optional field: only where the street or the city is named in several languages.
 */
export const Address = z.object({
  id: z.string(),
  suburb_id: z.string(),
  building_id: z.string(),
  number: z.string(),
  suffix: z.string(),
  streetname: z.string(),
  postcode: z.string(),
  city: z.string(),
  names: AddressNames,
});
export const AddressList = z.array(Address);

const Coordinates = { longitude: z.number(), latitude: z.number() };

export const LookupResult = Address.pick({
  id: true,
  streetname: true,
  number: true,
  suffix: true,
  city: true,
  postcode: true,
  names: true,
}).extend(Coordinates);
export const LookupResponse = z.array(LookupResult);

export const MatchQuality = z.object({
  street: z.enum(['exact', 'normalized', 'fuzzy', 'none']),
  number: z.enum(['exact', 'other_suffix', 'nearest']),
  postcode: z.enum(['exact', 'ignored', 'none']),
});

export const ForwardResult = Address.extend({
  ...Coordinates,
  confidence: z.number().min(0).max(1),
  match: MatchQuality,
});

/** Present only where the area has several names (a Belgian municipality: nl, fr, de). */
const AreaNames = LocalisedNames.optional().describe('The name per language, where there is more than one');

/** A list record of the hierarchy: id, the id of its parent (by the parent's field name), name, official code. */
function areaRecord<F extends string>(parentField: F) {
  return z.object({
    id: z.string(),
    ...({ [parentField]: z.string() } as Record<F, z.ZodString>),
    name: z.string(),
    local_identifier: z.string(),
    names: AreaNames,
  });
}

export const Country = z.object({
  id: z.string(),
  name: z.string(),
  country_code: z.string(),
  country_code3: z.string(),
  local_identifier: z.string(),
  names: AreaNames,
});
export const CountryList = z.array(Country);
export const Province = areaRecord('country_id');
export const ProvinceList = z.array(Province);
export const Municipality = areaRecord('province_id');
export const MunicipalityList = z.array(Municipality);
export const City = areaRecord('municipality_id');
export const CityList = z.array(City);

const Position = z.array(z.number()).min(2).max(3);
export const Geometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Point'), coordinates: Position }),
  z.object({ type: z.literal('MultiPoint'), coordinates: z.array(Position) }),
  z.object({ type: z.literal('LineString'), coordinates: z.array(Position) }),
  z.object({ type: z.literal('MultiLineString'), coordinates: z.array(z.array(Position)) }),
  z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(Position)) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(Position))) }),
]);

export const Feature = z.object({
  type: z.literal('Feature'),
  id: z.string(),
  geometry: Geometry,
  properties: z.record(z.string(), z.unknown()),
});

/** RFC 7946 FeatureCollection: what every `.../geojson` endpoint returns. */
export const FeatureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(Feature),
});

/** The `properties` of each kind of feature (built in src/geojson/features.ts); ids are "" where unknown. */
const LonLat = z.array(z.number()).length(2).describe('[longitude, latitude]');
export const AreaFeatureProperties = z.object({
  id: z.string(),
  level: z.enum(AREA_LEVELS),
  name: z.string(),
  local_identifier: z.string(),
  country_code: z.string(),
  country_id: z.string(),
  province_id: z.string(),
  municipality_id: z.string(),
  city_id: z.string(),
  parent_id: z.string().describe('id of the direct parent ("" for countries)'),
  centroid: LonLat,
  bbox: z.array(z.number()).length(4).describe('[minLon, minLat, maxLon, maxLat]'),
});
export const BuildingFeatureProperties = z.object({
  id: z.string(),
  local_identifier: z.string().describe('BAG pand id where known'),
  building_type: z.string(),
  suburb_id: z.string(),
  city_id: z.string(),
  municipality_id: z.string(),
  centroid: LonLat,
});
export const AddressFeatureProperties = Address.extend(Coordinates);

/** A FeatureCollection whose features carry one kind of `properties`: what the API documents per endpoint. */
const collectionOf = (properties: z.ZodObject) =>
  FeatureCollection.extend({ features: z.array(Feature.extend({ properties })) });
export const AreaFeatureCollection = collectionOf(AreaFeatureProperties);
export const BuildingFeatureCollection = collectionOf(BuildingFeatureProperties);
export const AddressFeatureCollection = collectionOf(AddressFeatureProperties);

/**
 * ok: serving; not_loaded: Elasticsearch answers but an index is missing; unavailable: it does not answer;
 * draining: the process is shutting down (SIGTERM) and answers the requests it has.
 */
export const Readiness = z.object({ status: z.enum(['ok', 'not_loaded', 'unavailable', 'draining']) });
export const Liveness = z.object({ status: z.literal('ok') });

export const Health = z.object({
  status: Readiness.shape.status,
  elasticsearch: z.object({
    /** Only for keyed or loopback callers. */
    version: z.string().optional(),
    cluster_status: z.string(),
  }),
  /** `alias` and `index` only for keyed or loopback callers. */
  indexes: z.record(
    z.string(),
    z.object({ alias: z.string().optional(), index: z.string().optional(), documents: z.number() }).nullable(),
  ),
  /** The rendered-body cache of boundary and hierarchy answers (BODY_CACHE_BYTES). */
  body_cache: z.object({ entries: z.number().int(), bytes: z.number().int(), max_bytes: z.number().int() }),
  /** The circuit breaker and load bound around Elasticsearch (BREAKER_*, MAX_IN_FLIGHT_SEARCHES, MAX_QUEUED_REQUESTS). */
  guard: z.object({ breaker: z.enum(['closed', 'open']), in_flight: z.number().int(), queued: z.number().int() }),
});

export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});

/** GET /reverse: the nearest addresses with their distance, and the areas whose polygons contain the point. */
export const ReverseAddress = Address.extend({ ...Coordinates, distance_m: z.number().min(0) });
export const AreaRef = z.object({ id: z.string(), name: z.string(), local_identifier: z.string(), names: AreaNames });
export const ReverseResponse = z.object({
  addresses: z.array(ReverseAddress),
  // One key per level, largest first (the levels are declared once, in core/elasticsearch/documents.ts).
  areas: z.object(
    Object.fromEntries(PARENT_LEVELS.map((level) => [level, AreaRef.nullable()])) as Record<
      ParentLevel,
      z.ZodNullable<typeof AreaRef>
    >,
  ),
});

/**
 * GET /autocomplete: streets, addresses, postcodes and areas for type-ahead, `type` as GET /search names them;
 * `id` on addresses and areas (the hierarchy id), `bbox` on areas.
 */
export const AutocompleteSuggestion = z.object({
  type: z.enum(['street', 'address', 'postcode', 'city', 'suburb', 'municipality', 'province', 'country']),
  label: z.string(),
  id: z.string().optional(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  streetname: z.string(),
  number: z.string(),
  suffix: z.string(),
  postcode: z.string(),
  city: z.string(),
  ...Coordinates,
  names: AddressNames,
});
export const AutocompleteResponse = z.array(AutocompleteSuggestion);

/** [minLon, minLat, maxLon, maxLat] */
const Bbox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
/** A place's name per language, present when it has more than one (Brussels: nl and fr). */
const Names = z.record(z.string(), z.string()).optional();
/** What every place result carries: a label, a point inside it, its envelope, how well its name matched. */
const PlaceCommon = {
  label: z.string(),
  id: z.string(),
  ...Coordinates,
  bbox: Bbox,
  address_count: z.number().int().min(0),
  match: z.enum(['exact', 'prefix', 'typo']),
  confidence: z.number().min(0).max(1),
};
export const AddressSearchResult = ForwardResult.extend({ type: z.literal('address'), label: z.string() });
export const StreetSearchResult = z.object({
  type: z.literal('street'),
  ...PlaceCommon,
  streetname: z.string(),
  city: z.string(),
  postcode: z.string().describe('The most common postcode of its addresses, "" when unknown'),
  names: Names,
});
export const PostcodeSearchResult = z.object({
  type: z.literal('postcode'),
  ...PlaceCommon,
  postcode: z.string(),
  city: z.string(),
});
const ParentNames = z.object({
  city: z.string(),
  municipality: z.string(),
  province: z.string(),
  country: z.string(),
});
/** An area: `id` is the hierarchy id (`/cities/{id}/geojson` and the like). */
const areaSearchResult = <T extends 'city' | 'suburb' | 'municipality' | 'province' | 'country'>(type: T) =>
  z.object({
    type: z.literal(type),
    ...PlaceCommon,
    name: z.string(),
    names: Names,
    local_identifier: z.string(),
    parents: ParentNames.describe('The names of the areas it lies in, "" where there is none'),
  });
export const SearchResult = z.discriminatedUnion('type', [
  AddressSearchResult,
  StreetSearchResult,
  PostcodeSearchResult,
  areaSearchResult('city'),
  areaSearchResult('suburb'),
  areaSearchResult('municipality'),
  areaSearchResult('province'),
  areaSearchResult('country'),
]);
export type SearchResult = z.infer<typeof SearchResult>;
/** GET /search: addresses and places, best first. */
export const SearchResponse = z.array(SearchResult);

/**
 * `format=geojson` on a result list (src/geojson/resultFeatures.ts): one Point feature per result, its
 * `properties` the JSON record, its `bbox` the record's where it has one.
 */
const resultCollectionOf = (record: z.ZodType) =>
  z.object({
    type: z.literal('FeatureCollection'),
    bbox: Bbox.optional().describe('[minLon, minLat, maxLon, maxLat] over every feature; absent when there is none'),
    features: z.array(
      z.object({
        type: z.literal('Feature'),
        id: z.string().optional().describe("The record's id, where it has one"),
        geometry: z.object({ type: z.literal('Point'), coordinates: LonLat }),
        bbox: Bbox.optional().describe("The record's bbox, where it has one"),
        properties: record,
      }),
    ),
  });
export const SearchFeatureCollection = resultCollectionOf(SearchResult);
export const AutocompleteFeatureCollection = resultCollectionOf(AutocompleteSuggestion);
/** The containing areas ride along as a foreign member (RFC 7946 section 6.1): they are not points of the list. */
export const ReverseFeatureCollection = resultCollectionOf(ReverseAddress).extend({
  areas: ReverseResponse.shape.areas,
});

/** GET /openapi.json: an OpenAPI 3.1 document (its own shape is the OpenAPI specification's). */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** GET /metrics: the Prometheus text exposition format. */
export const MetricsText = z.string().describe('Prometheus text format');

/** POST /geocode/batch: one entry per item, in input order; a bad item answers its own error. */
export const BatchItemResult = z.union([
  z.object({ status: z.literal(200), result: ForwardResult }),
  z.object({ status: z.union([z.literal(400), z.literal(404)]), error: ErrorResponse.shape.error }),
]);
export const BatchResponse = z.object({ results: z.array(BatchItemResult) });
