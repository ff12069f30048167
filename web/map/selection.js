/**
 * A click on an area selects it: the area of the finest level the map draws at that zoom (a municipality at 8, a
 * city from 9, a suburb from 11, a building at 14), read from the rendered tiles under the pointer, is filled and
 * named (in the labels' language) in the "Selected area" panel, with its id to go on with (`/{level}/{id}/geojson`, its lists).
 */
import { fillLayerId, finestLevelAt, SOURCE } from './boundaryLayers.js';

const LEVEL_NAMES = {
  country: 'Country',
  province: 'Province',
  municipality: 'Municipality',
  city: 'City',
  suburb: 'Suburb',
  building: 'Building',
};

export function createSelection({ map, panel, text, language }) {
  let vectorLayers = [];
  let selected = null;

  function unselect() {
    if (selected && map.getSource(SOURCE)) map.setFeatureState(selected, { selected: false });
    selected = null;
  }

  function show(level, properties) {
    panel.hidden = false;
    panel.dataset.level = level;
    panel.dataset.id = properties.id;
    const code = properties.local_identifier && properties.local_identifier !== properties.name;
    const name = properties[`name:${language}`] ?? properties.name ?? properties.local_identifier ?? properties.id;
    text.textContent = `${LEVEL_NAMES[level]} ${name}${code ? ` (${properties.local_identifier})` : ''}`;
  }

  map.on('click', (event) => {
    const level = finestLevelAt(vectorLayers, Math.floor(map.getZoom()));
    if (!level || !map.getLayer(fillLayerId(level))) return;
    const [feature] = map.queryRenderedFeatures(event.point, { layers: [fillLayerId(level)] });
    unselect();
    if (!feature) {
      panel.hidden = true;
      return;
    }
    selected = { source: SOURCE, sourceLayer: feature.sourceLayer, id: feature.id };
    map.setFeatureState(selected, { selected: true });
    show(level, feature.properties);
  });

  return {
    /** TileJSON's layers, once the tiles are drawn (again). */
    setLayers(layers) {
      selected = null;
      vectorLayers = layers;
    },
  };
}
