/**
 * TileJSON 3.0.0 for the boundary tiles (pure): the tile URL, the pyramid, the bounds of the data and each source
 * layer with its fields and zooms, all from the zoom table (zoomTable.ts).
 *
 * The tile URL carries what the client needs to fetch tiles: when the caller gave its key in the query string (a
 * client that cannot send headers: OpenLayers' VectorTile source, MapLibre without transformRequest), that key, as
 * `api_key`; a caller that sent the X-Api-Key header can send it with every tile too, so its URL carries none.
 * A TileJSON is thus only ever written with the key its own caller presented, and is not kept in the body cache.
 */
import { MAX_ZOOM, MIN_ZOOM, LABEL_LAYER, LEVEL_LAYERS, levelsAt } from './zoomTable.js';
import { NAME_LANGUAGES } from './tileFeatures.js';
import type { TileBounds } from './tileRepository.js';
import { type Attribution, UNRECORDED_SOURCES } from '../../indexes/attribution.js';

export const TILE_PATH = '/tiles/boundaries/{z}/{x}/{y}.mvt';

/** The levels the tiles draw: every area level and the buildings (derived cities are credited as their addresses). */
const TILED_LEVELS = ['countries', 'provinces', 'municipalities', 'cities', 'suburbs', 'buildings'] as const;

const OSM_CREDIT = '© OpenStreetMap contributors';
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The credits of the sources of what the tiles draw, from the live generation's table (src/indexes/attribution.ts),
 * as the HTML MapLibre shows: each text escaped, OpenStreetMap's credit linked to its copyright page as OSM asks.
 */
export function tileAttribution(attribution: Attribution): string {
  const credits = attribution.ofLevels(TILED_LEVELS);
  if (credits.length === 0) return escapeHtml(UNRECORDED_SOURCES);
  return credits
    .map((text) =>
      escapeHtml(text).replace(OSM_CREDIT, `<a href="https://www.openstreetmap.org/copyright">${OSM_CREDIT}</a>`),
    )
    .join(' · ');
}

/** Web mercator stops here: TileJSON's bounds stay inside the square the pyramid covers. */
const MAX_LATITUDE = 85.0511;

const AREA_FIELDS: Record<string, string> = {
  id: 'String: the hierarchy id (`/{level}/{id}/geojson`)',
  name: 'String: the name in the area’s own language',
  ...Object.fromEntries(NAME_LANGUAGES.map((l) => [`name:${l}`, `String: the name in ${l}, where the area has one`])),
  local_identifier: 'String: the official code (CBS, NIS, ISO 3166)',
  level: 'String: country, province, municipality, city or suburb',
};

const BUILDING_FIELDS: Record<string, string> = {
  id: 'String: the building id',
  local_identifier: 'String: the BAG pand id where known',
  level: 'String: building',
};

export function vectorLayers() {
  const layers = LEVEL_LAYERS.map(({ level, layer, minzoom }) => ({
    id: layer,
    description: `The ${layer}' boundaries (polygons)`,
    minzoom,
    maxzoom: MAX_ZOOM,
    fields: level === 'building' ? BUILDING_FIELDS : AREA_FIELDS,
  }));
  const labelled = levelsAt(MAX_ZOOM).filter((l) => l.level !== 'building');
  const label = {
    id: LABEL_LAYER,
    description: `A point inside each area (where labels go), of every level shown at the zoom; \`level\` tells which`,
    minzoom: Math.min(...labelled.map((l) => l.minzoom)),
    maxzoom: MAX_ZOOM,
    fields: AREA_FIELDS,
  };
  return [...layers, label];
}

export function tileJson(
  origin: string,
  key: string | undefined,
  bounds: TileBounds | undefined,
  attribution: Attribution,
) {
  const query = key === undefined ? '' : `?${new URLSearchParams({ api_key: key }).toString()}`;
  const clampLat = (lat: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  return {
    tilejson: '3.0.0',
    name: 'boundaries',
    description: 'Administrative boundaries (countries to suburbs) and buildings, with a label point per area',
    version: '1.0.0',
    attribution: tileAttribution(attribution),
    scheme: 'xyz',
    tiles: [`${origin}${TILE_PATH}${query}`],
    minzoom: MIN_ZOOM,
    maxzoom: MAX_ZOOM,
    bounds: bounds
      ? [bounds.minLon, clampLat(bounds.minLat), bounds.maxLon, clampLat(bounds.maxLat)]
      : [-180, -MAX_LATITUDE, 180, MAX_LATITUDE],
    vector_layers: vectorLayers(),
  };
}
