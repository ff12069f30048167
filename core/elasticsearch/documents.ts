/**
 * The shapes of the documents the indexer writes and the API reads. The field list must match
 * `mappings/*.json` (which are `dynamic: strict`, so a drift fails loudly at index time).
 */
import type { Geometry, MultiPolygon, Polygon } from 'geojson';

/** The area levels, largest first: declared once for the documents, the response schemas and GET /reverse. */
export const AREA_LEVELS = ['country', 'province', 'municipality', 'city', 'suburb'] as const;
export type AreaLevel = (typeof AREA_LEVELS)[number];
/** Every level a place lies in, largest first: the areas, then the building (GET /reverse's `areas`). */
export const PARENT_LEVELS = [...AREA_LEVELS, 'building'] as const;
export type ParentLevel = (typeof PARENT_LEVELS)[number];

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface BoundingBox {
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
}

/** Parent ids of every level, so each hierarchy endpoint is one filtered query. "" where unknown. */
export interface ParentIds {
  country_id: string;
  province_id: string;
  municipality_id: string;
  city_id: string;
}

export interface AreaDoc extends ParentIds {
  id: string;
  level: AreaLevel;
  /** `<dataset level>:<source key>`: what the stable id was derived from, for tracing a record back. */
  source_key: string;
  name: string;
  /** normaliseText(name): exact, case- and diacritic-insensitive match. */
  name_key: string;
  /** nameTokens(name): prefix filter on words. */
  name_tokens: string[];
  /** Official code where the source has one: ISO 3166-1 alpha-2 for countries, CBS PVxx/GMxxxx, woonplaatscode, wijk code. */
  local_identifier: string;
  /** ISO 3166-1 alpha-2 / alpha-3 of the country the area lies in, upper case; "" when unknown. */
  country_code: string;
  country_code3: string;
  /** id of the direct parent ("" for countries or when no parent was found). */
  parent_id: string;
  centroid: GeoPoint;
  bbox: BoundingBox;
  geometry: Polygon | MultiPolygon;
}

export interface BuildingDoc extends ParentIds {
  id: string;
  source_key: string;
  /** BAG pand id where known. */
  local_identifier: string;
  building_type: string;
  suburb_id: string;
  centroid: GeoPoint;
  bbox: BoundingBox;
  geometry: Geometry;
}

export interface AddressDoc extends ParentIds {
  id: string;
  source_key: string;
  /** Canonical street name as the source spells it, returned to clients. */
  streetname: string;
  /** streetKey(streetname): exact normalised match. */
  street_key: string;
  /** normaliseStreet(streetname): analysed text for fuzzy matching. */
  street_text: string;
  house_number: number;
  /** Display form of the house number (digits only). */
  number: string;
  letter: string;
  addition: string;
  /** suffixKey(): letter + addition, normalised. */
  suffix_key: string;
  /** Display form of the suffix (formatSuffix()). */
  suffix: string;
  postcode: string;
  postcode_key: string;
  city: string;
  city_key: string;
  location: GeoPoint;
  suburb_id: string;
  building_id: string;
}

/**
 * One street in one city, built by the indexer from the addresses (type-ahead reads it instead of grouping
 * addresses per keystroke). Parent ids are those of the street's addresses (the first one found).
 */
export interface StreetDoc extends ParentIds {
  id: string;
  /** `streets:<street_key>|<city_key>`: what the stable id was derived from. */
  source_key: string;
  /** The most common spelling among the street's addresses. */
  streetname: string;
  street_key: string;
  /** streetWordTokens(streetname) (indexer/streets.ts): every tail of the normalised words; prefix queries on them. */
  street_words: string[];
  city: string;
  city_key: string;
  /** Addresses of the street in this city (records read; OSM's repeated addresses counted each time). */
  address_count: number;
  /** Representative point: the sampled address nearest the street's mean point. */
  location: GeoPoint;
  /** Up to 16 sampled address points: distance to the street is the distance to the nearest of them. */
  points: GeoPoint[];
}

export type IndexKind = 'addresses' | 'buildings' | 'areas' | 'streets';
export const INDEX_KINDS: readonly IndexKind[] = ['areas', 'buildings', 'addresses', 'streets'];

/**
 * The field on a child document that holds the id of its parent at this level: one table for the indexer
 * (which fills the fields) and the API (which filters children by them).
 */
export const PARENT_ID_FIELD = {
  country: 'country_id',
  province: 'province_id',
  municipality: 'municipality_id',
  city: 'city_id',
  suburb: 'suburb_id',
  building: 'building_id',
} as const satisfies Record<ParentLevel, string>;

export type ParentIdField = (typeof PARENT_ID_FIELD)[ParentLevel];
