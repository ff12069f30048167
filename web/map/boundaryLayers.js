/**
 * The boundary tiles as MapLibre style layers (pure): per level a fill (drawn transparent where the level has no
 * fill, so that a click can find the area) and a line, from the zoom the level's source layer starts at, and the
 * labels in the chosen language. The source layers and their zooms come from the service's TileJSON. An area's
 * `selected` feature state (MapLibre's feature id is the tiles' `id` property: promoteId) fills it.
 */
import { LEVEL_STYLES, SELECTED_FILL } from './styles.js';

export const SOURCE = 'boundaries';
/** Source layer -> level, as the tiles name them (docs/tiles.md). */
export const LEVEL_OF_LAYER = {
  countries: 'country',
  provinces: 'province',
  municipalities: 'municipality',
  cities: 'city',
  suburbs: 'suburb',
  buildings: 'building',
};
export const LABEL_LAYER = 'labels';
/** Languages the tiles carry names in (`name:nl`, …). */
export const NAME_LANGUAGES = ['nl', 'fr', 'de'];

export const fillLayerId = (level) => `boundary-${level}-fill`;
const lineLayerId = (level) => `boundary-${level}-line`;

/** `['coalesce', name:xx, name]`: the area's name in `language` where it has one, else in its own language. */
export function labelText(language) {
  return NAME_LANGUAGES.includes(language)
    ? ['coalesce', ['get', `name:${language}`], ['get', 'name']]
    : ['get', 'name'];
}

/** The language labels are shown in: the one picked on the page, else the browser's own if the tiles carry it. */
export function labelLanguage(picked, browserLanguages) {
  if (picked) return picked;
  return browserLanguages.map((tag) => tag.slice(0, 2).toLowerCase()).find((l) => NAME_LANGUAGES.includes(l)) ?? '';
}

const LABEL_COLOUR = '#333333';
/** Label size per level: the larger the area, the larger its name. */
const LABEL_SIZE = { country: 14, province: 13, municipality: 12, city: 11, suburb: 11 };

/**
 * Style layers for the levels of `vectorLayers` (TileJSON's), largest first so a smaller area's line lies on top,
 * then the labels. A level's labels start where its polygons do.
 */
export function boundaryLayers(vectorLayers, language, { baseMap = false } = {}) {
  const levels = vectorLayers
    .filter((layer) => LEVEL_OF_LAYER[layer.id])
    .map((layer) => ({ level: LEVEL_OF_LAYER[layer.id], sourceLayer: layer.id, minzoom: layer.minzoom }));
  const fills = levels.map(({ level, sourceLayer, minzoom }) => {
    const style = LEVEL_STYLES[level];
    // Over a base map the countries are not filled: the base map shows through.
    const opacity = style.fill && !(baseMap && level === 'country') ? style.fillOpacity : 0;
    return {
      id: fillLayerId(level),
      type: 'fill',
      source: SOURCE,
      'source-layer': sourceLayer,
      minzoom,
      paint: {
        'fill-color': [
          'case',
          ['boolean', ['feature-state', 'selected'], false],
          SELECTED_FILL.color,
          style.fill ?? '#000000',
        ],
        'fill-opacity': ['case', ['boolean', ['feature-state', 'selected'], false], SELECTED_FILL.opacity, opacity],
      },
    };
  });
  const lines = levels.map(({ level, sourceLayer, minzoom }) => {
    const style = LEVEL_STYLES[level];
    return {
      id: lineLayerId(level),
      type: 'line',
      source: SOURCE,
      'source-layer': sourceLayer,
      minzoom,
      paint: {
        'line-color': style.line,
        'line-width': style.width,
        ...(style.dash && { 'line-dasharray': style.dash }),
      },
    };
  });
  const labels = levels
    .filter(({ level }) => LABEL_SIZE[level])
    .map(({ level, minzoom }) => ({
      id: `boundary-${level}-label`,
      type: 'symbol',
      source: SOURCE,
      'source-layer': LABEL_LAYER,
      minzoom,
      filter: ['==', ['get', 'level'], level],
      layout: { 'text-field': labelText(language), 'text-font': ['sans-serif'], 'text-size': LABEL_SIZE[level] },
      // One dark colour for every label: a boundary's colour then only ever marks a boundary.
      paint: { 'text-color': LABEL_COLOUR, 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    }));
  // Fills first: every line over every fill, the finest levels' lines on top.
  return [...fills, ...lines, ...labels];
}

/** The deepest level drawn at `zoom` (what a click there selects), from TileJSON's layers. */
export function finestLevelAt(vectorLayers, zoom) {
  const drawn = vectorLayers.filter((layer) => LEVEL_OF_LAYER[layer.id] && layer.minzoom <= zoom);
  const last = drawn[drawn.length - 1];
  return last ? LEVEL_OF_LAYER[last.id] : null;
}
