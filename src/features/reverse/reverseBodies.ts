/**
 * Where the reverse-geocoding queries are built (GET /reverse): pure functions from a point to Elasticsearch
 * request bodies. Which runs when, and the exact containment tests, live in reverseRepository.ts and
 * containment.ts.
 */
import { ADDRESS_SOURCE } from '../address/addressFields.js';
import type { estypes } from '@elastic/elasticsearch';
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';
import { viewportClause } from '../../geometry/viewport.js';
import { STABLE_SORT } from '../address/addressOrder.js';

export interface ReversePoint {
  lat: number;
  lon: number;
}

/** The stored fields an address of a reverse answer needs (the Address record and its location). */
export const REVERSE_ADDRESS_SOURCE = [
  ...ADDRESS_SOURCE,
  // The Address record's ids of its suburb and building.
  'suburb_id',
  'building_id',
  // The street's keys: its id (`street_id`) is derived from them, as the indexer derived it.
  'street_key',
  'city_key',
] as const satisfies readonly (keyof AddressDoc)[];
export type ReverseAddressDoc = Pick<AddressDoc, (typeof REVERSE_ADDRESS_SOURCE)[number]>;

/**
 * The addresses nearest the point, at most `size`, nearest first; addresses at the same distance (several at one
 * point: flats, shops sharing a door) in the lookup's stable order. The first sort value is the distance in
 * metres. The filter is the box around the circle of `radiusM` (measured: a geo_bounding_box filter lets
 * Elasticsearch answer 1.5-2x the searches per second of a geo_distance filter), so hits in the box's corners may
 * lie beyond the radius: the caller drops those (withinRadius); sorted by distance, they come last.
 */
export function nearestAddressesRequest(point: ReversePoint, radiusM: number, size: number): estypes.SearchRequest {
  const location = { lat: point.lat, lon: point.lon };
  return {
    query: { bool: { filter: [radiusFilter(point, radiusM)] } },
    sort: [{ _geo_distance: { location, order: 'asc', unit: 'm', distance_type: 'arc' } }, ...STABLE_SORT],
    size,
    _source: [...REVERSE_ADDRESS_SOURCE],
    track_total_hits: false,
  };
}

/** Metres per degree of latitude, rounded down (110.57-111.69 km on the ellipsoid): the box errs on the large side. */
const METRES_PER_DEGREE = 110_000;

/** The box enclosing the circle; near the poles or across the antimeridian the circle itself. */
export function radiusFilter(point: ReversePoint, radiusM: number): estypes.QueryDslQueryContainer {
  const dLat = radiusM / METRES_PER_DEGREE;
  const dLon = radiusM / (METRES_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180));
  const top = point.lat + dLat;
  const bottom = point.lat - dLat;
  const left = point.lon - dLon;
  const right = point.lon + dLon;
  if (Math.abs(point.lat) > 80 || top > 90 || bottom < -90 || left < -180 || right > 180) {
    return { geo_distance: { distance: `${radiusM}m`, location: { lat: point.lat, lon: point.lon } } };
  }
  return {
    geo_bounding_box: { location: { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } } },
  };
}

/** The hits of nearestAddressesRequest that lie within the radius (their first sort value is the distance). */
export function withinRadius<H extends { sort?: estypes.SortResults }>(hits: H[], radiusM: number): H[] {
  return hits.filter((hit) => Number(hit.sort?.[0] ?? Infinity) <= radiusM);
}

/** Buildings whose stored envelope contains the point: the candidates the exact footprint test then confirms. */
export const BUILDING_CANDIDATES = 64;

/** Documents whose stored envelope contains the point: the viewport filter of a zero-size box. */
export function envelopeContainsClause(point: ReversePoint): estypes.QueryDslQueryContainer[] {
  return viewportClause({ minLon: point.lon, minLat: point.lat, maxLon: point.lon, maxLat: point.lat });
}

export function buildingCandidatesRequest(point: ReversePoint): estypes.SearchRequest {
  return {
    query: { bool: { filter: envelopeContainsClause(point) } },
    size: BUILDING_CANDIDATES,
    _source: ['id', 'local_identifier', 'bbox', 'geometry'],
    track_total_hits: false,
  };
}

/** Every area of one generation, with its shape: what the in-process area index is built from, page by page. */
export const AREA_INDEX_SOURCE = ['id', 'level', 'name', 'names', 'local_identifier', 'bbox', 'geometry'];
export const AREA_INDEX_SORT: estypes.SortCombinations[] = [{ id: 'asc' }];
export const AREA_INDEX_PAGE_SIZE = 200;
export const ALL_AREAS_QUERY: estypes.QueryDslQueryContainer = { match_all: {} };

/**
 * The tiles holding a building (see TileCoverage): one aggregation per buildings generation. More than
 * COVERAGE_MAX_TILES buckets would mean the list is cut, and the coverage is then taken as everywhere.
 */
export const COVERAGE_MAX_TILES = 65_536;

export function buildingTilesRequest(zoom: number): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: false,
    aggs: { tiles: { geotile_grid: { field: 'centroid', precision: zoom, size: COVERAGE_MAX_TILES } } },
  };
}

/**
 * Addresses are first looked for within NEAR_RADIUS_M (a point at a door or on a street, the common case: a
 * smaller distance filter, a cheaper sort); only when that finds fewer than `size` is the full radius searched.
 */
export const NEAR_RADIUS_M = 50;
