/**
 * The MapLibre map: an empty background (or the deployment's base map, when one is configured) under the service's
 * boundary tiles, which are added once there is a key. Tile and TileJSON requests to this service carry the key as
 * the `X-Api-Key` header (transformRequest), as every other call of the page does: never in a URL.
 */
import * as maplibregl from './vendor/maplibre/maplibre-gl.mjs';
import { boundaryLayers, SOURCE } from './boundaryLayers.js';
import { isOwnUrl } from './ownUrl.js';

const TILEJSON = '/tiles/boundaries.json';
const BACKGROUND = { id: 'background', type: 'background', paint: { 'background-color': '#dfe9f2' } };

/** The style the map starts from: a plain background, a raster base map, or a configured style's URL. */
export function baseStyle(base) {
  if (base?.style) return base.style;
  const sources = {};
  const layers = [BACKGROUND];
  if (base?.raster) {
    sources.base = { type: 'raster', tiles: [base.raster], tileSize: 256, attribution: base.attribution ?? '' };
    layers.push({ id: 'base', type: 'raster', source: 'base' });
  }
  return { version: 8, sources, layers };
}

export function createMap({ container, base, keyOf, start }) {
  const map = new maplibregl.Map({
    container,
    style: baseStyle(base),
    center: start.center,
    zoom: start.zoom,
    minZoom: 1,
    maxZoom: 19,
    renderWorldCopies: false,
    // The view in the address (`#zoom/lat/lon`): a link or a reload shows the same place.
    hash: true,
    attributionControl: { compact: false },
    // Only this service's own requests carry its key (ownUrl.js: the page's origin, once resolved); a base map's
    // host never sees it. Without a key (the dialog is asking for one) a tile goes without and is refused: nothing
    // sends an empty key.
    transformRequest: (url) => (isOwnUrl(url) && keyOf() ? { url, headers: { 'X-Api-Key': keyOf() } } : { url }),
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  return map;
}

/**
 * Draws (or draws again, after a new key) the boundary tiles under the page's overlays, labels in `language`.
 * With a base map the countries are not filled, so the base map shows through. Answers TileJSON's layers.
 */
export async function drawBoundaries(map, { api, language, base, below }) {
  const tilejson = await api(TILEJSON, { fresh: true });
  const layers = boundaryLayers(tilejson.vector_layers, language, { baseMap: Boolean(base) });
  for (const layer of layers) if (map.getLayer(layer.id)) map.removeLayer(layer.id);
  if (map.getSource(SOURCE)) map.removeSource(SOURCE);
  // The TileJSON as fetched (the tiles' URL, zooms, bounds and attribution), so MapLibre need not fetch it again.
  map.addSource(SOURCE, {
    type: 'vector',
    tiles: tilejson.tiles,
    minzoom: tilejson.minzoom,
    maxzoom: tilejson.maxzoom,
    bounds: tilejson.bounds,
    attribution: tilejson.attribution,
    promoteId: 'id',
  });
  for (const layer of layers) map.addLayer(layer, below());
  return tilejson.vector_layers;
}

export { maplibregl };
