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
  /** The name per language ({"nl": "Elsene", "fr": "Ixelles", "de": "Ixelles"}) where the source has several. */
  names?: Record<string, string>;
  /** normaliseText() of each name in `names` that differs from name_key: a name filter matches any language. */
  other_name_keys?: string[];
  /** nameTokens() of those names. */
  other_name_tokens?: string[];
  /**
   * Official code where the source has one: ISO 3166-1 alpha-2 for countries, CBS PVxx/GMxxxx, ISO 3166-2 for the
   * Belgian provinces, the NIS code of Belgian municipalities, woonplaatscode, wijk code.
   */
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

/**
 * The identifiers an official source gives an address, so a client can join an answer back to it: the BAG's
 * nummeraanduiding (the address), its object (verblijfsobject, standplaats or ligplaats) and the pand the
 * verblijfsobject lies in; BeST Address's address id; OpenAddresses' ID and HASH. mappings/addresses.json lists them.
 */
export const SOURCE_ID_NAMES = [
  'bag_nummeraanduiding',
  'bag_verblijfsobject',
  'bag_standplaats',
  'bag_ligplaats',
  'bag_pand',
  'best_address',
  'openaddresses_id',
  'openaddresses_hash',
  'osm',
] as const;
export type SourceIdName = (typeof SOURCE_ID_NAMES)[number];
export type SourceIds = Partial<Record<SourceIdName, string>>;

export interface AddressDoc extends ParentIds {
  id: string;
  source_key: string;
  /** The source's own identifiers of the address, where it has them (official sources). */
  source_ids?: SourceIds;
  /** Canonical street name as the source spells it, returned to clients. */
  streetname: string;
  /** streetKey(streetname): exact normalised match. */
  street_key: string;
  /** normaliseStreet(streetname): analysed text for fuzzy matching. */
  street_text: string;
  /**
   * The street's name per language where a street-names table joined ({"nl": "Nieuwstraat", "fr": "Rue Neuve"});
   * the source's own name is `streetname`.
   */
  street_names?: Record<string, string>;
  /** streetKey() of every other-language name and alternative spelling (distinct from street_key). */
  other_street_keys?: string[];
  /** normaliseStreet() of each of them: analysed like street_text. */
  other_street_text?: string[];
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
  /** streetWordTokens(streetname) (indexer/derived/streetDocuments.ts): every tail of the normalised words; prefix queries on them. */
  street_words: string[];
  /** As on the addresses: the names per language, and the other names' keys and word tails (streetWordTokens). */
  street_names?: Record<string, string>;
  other_street_keys?: string[];
  other_street_words?: string[];
  city: string;
  city_key: string;
  /** Addresses of the street in this city (records read; OSM's repeated addresses counted each time). */
  address_count: number;
  /** Representative point: the sampled address nearest the street's mean point. */
  location: GeoPoint;
  /** Up to 16 sampled address points: distance to the street is the distance to the nearest of them. */
  points: GeoPoint[];
}

/**
 * What a place document is; areas keep their level's name. The result types of the search box, declared once:
 * the API's rules for each (label, prior, offered while typing) are the table in
 * src/features/places/placeTypes.ts, keyed by this type, so a new type fails to compile until it has its entry.
 */
export type PlaceType = 'street' | 'postcode' | AreaLevel;
/** Every place type, in the order the API lists them (`layers`, the schemas' enums). */
export const PLACE_TYPES = [
  'street',
  'postcode',
  'city',
  'suburb',
  'municipality',
  'province',
  'country',
] as const satisfies readonly PlaceType[];
/** Compile-time check that PLACE_TYPES names every PlaceType. */
const everyPlaceType: Exclude<PlaceType, (typeof PLACE_TYPES)[number]> extends never ? true : never = true;
void everyPlaceType;
/** A place type that is an area of the hierarchy (its id is a hierarchy id). */
export const isAreaType = (type: PlaceType): type is AreaLevel => (AREA_LEVELS as readonly string[]).includes(type);
/** The area place types, in PLACE_TYPES' order. */
export const AREA_PLACE_TYPES = PLACE_TYPES.filter(isAreaType);

/**
 * A name per language (`nl`, `fr`, `de`) where the source has several (Brussels); absent where it has one. Copied
 * through to place documents, which index a key for every language.
 */
export type LocalisedNames = Partial<Record<string, string>>;

/** Names of a place's ancestors, for labels ("Delft, Zuid-Holland"); "" where there is none. */
export interface PlaceParentNames {
  city: string;
  municipality: string;
  province: string;
  country: string;
}

/**
 * One place a search box can answer with: an area (its hierarchy id), a street in a city (the streets index's
 * id) or a postcode (`postcode:<country>:<key>`). Built by the indexer from the areas, the streets and the
 * addresses (indexer/derived/placeDocuments.ts) so one query searches every type in one round trip.
 */
export interface PlaceDoc {
  id: string;
  type: PlaceType;
  /** Display name: the area's or street's name, the postcode as written (2628CD, 1050). */
  name: string;
  /** Per-language names where the source has them ({} otherwise). */
  names: LocalisedNames;
  /** placeNameKeys() (core/text/placeKeys.ts) of every name: exact, prefix and fuzzy matching. */
  name_keys: string[];
  /**
   * placeNameKeys() of `name` alone, the place's own name (not another language's): a name matched here outranks
   * the same name matched only as another place's exonym ("Limburg": the provinces before Limbourg's Dutch name).
   */
  primary_name_keys: string[];
  /** placeNameKeys() of the ancestors' names (and a street's or postcode's city and postcode): "Mekelweg Delft". */
  qualifier_keys: string[];
  /**
   * placeNameKeys() of the place's own locality (its city, else its municipality): a qualifier naming it ranks the
   * place above one the qualifier only reaches through a province of that name ("Hoofdstraat Groningen").
   */
  locality_keys: string[];
  /** Areas: their official code; streets and postcodes: "". */
  local_identifier: string;
  parent_names: PlaceParentNames;
  /** The hierarchy ids the place lies in, its own id too for an area: the `within` filter. */
  ancestor_ids: string[];
  /** ISO 3166-1 alpha-2 (NL, BE), "" when unknown. */
  country: string;
  /** Streets: their name; "" otherwise. */
  streetname: string;
  /** Streets and postcodes: the (most common) city of their addresses; "" otherwise. */
  city: string;
  /** Streets: their most common postcode ("" when none); postcodes: themselves; "" otherwise. */
  postcode: string;
  /** A point inside the place: an area's representative point, an address of a street or postcode. */
  location: GeoPoint;
  /** Areas: their envelope; streets and postcodes: the extent of their addresses. */
  bbox: BoundingBox;
  /** Addresses inside an area, of a street, with a postcode: size breaks ties between same-named places. */
  address_count: number;
}

export type IndexKind = 'addresses' | 'buildings' | 'areas' | 'streets' | 'places';
export const INDEX_KINDS: readonly IndexKind[] = ['areas', 'buildings', 'addresses', 'streets', 'places'];

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
