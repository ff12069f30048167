/**
 * GeoJSON bodies: the `.../geojson` endpoints' FeatureCollections with each kind of feature's `properties`, and
 * `format=geojson` on the result lists of /search, /autocomplete and /reverse.
 */
import { z } from 'zod';
import { AREA_LEVELS } from '../../../core/elasticsearch/documents.js';
import { Address } from './addresses.js';
import { AutocompleteSuggestion } from './autocomplete.js';
import { Bbox, Coordinates, LonLat } from './fields.js';
import { ReverseAddress, ReverseResponse } from './reverse.js';
import { SearchResult } from './search.js';

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
