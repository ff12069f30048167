/**
 * The page's own GeoJSON drawings over the tiles (the chosen outline, the areas around a clicked point, the
 * children the browse panel draws for the view): each a GeoJSON source with a line layer. Each notes how many
 * features it draws on the map element (`data-overlay-<name>`), where scripts reading the page (the browser tests)
 * see it.
 */
import { OVERLAY_STYLES } from './styles.js';

const EMPTY = { type: 'FeatureCollection', features: [] };
/** The fixed overlays, lowest first; the browse panel's view layers go below them. */
const FIXED = ['reverse', 'outline'];
export const LOWEST_FIXED_LAYER = `overlay-${FIXED[0]}-line`;

const asCollection = (data) =>
  data.type === 'FeatureCollection' ? data : { type: 'FeatureCollection', features: [data] };

/** One overlay named `name` (one word) drawn in `style` below the layer `beforeId` (on top when none). */
export function addOverlay(map, name, style, beforeId) {
  const source = `overlay-${name}`;
  const layer = `${source}-line`;
  const element = map.getContainer();
  // `data-overlay-<name>` (names are single words).
  const dataKey = `overlay${name[0].toUpperCase()}${name.slice(1)}`;
  const note = (count) => {
    element.dataset[dataKey] = String(count);
  };
  map.addSource(source, { type: 'geojson', data: EMPTY });
  const paint = {
    'line-color': style.line,
    'line-width': style.width,
    ...(style.dash && { 'line-dasharray': style.dash }),
  };
  map.addLayer({ id: layer, type: 'line', source, paint }, beforeId);
  note(0);
  return {
    /** Replaces what the overlay draws (a Feature or a FeatureCollection). */
    set(data) {
      const collection = asCollection(data);
      map.getSource(source).setData(collection);
      note(collection.features.length);
    },
    clear() {
      map.getSource(source).setData(EMPTY);
      note(0);
    },
    remove() {
      map.removeLayer(layer);
      map.removeSource(source);
      delete element.dataset[dataKey];
    },
  };
}

/** The reverse and outline overlays, on top of everything. */
export function createOverlays(map) {
  return Object.fromEntries(FIXED.map((name) => [name, addOverlay(map, name, OVERLAY_STYLES[name])]));
}
