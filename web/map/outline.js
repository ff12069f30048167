/** The outline of the item chosen in the browse panel, optionally framed. */
import { leafletBounds, mainBox } from './geometry.js';
import { STYLES } from './styles.js';

const FRAME_PADDING_PX = [24, 24];
const FRAME_MAX_ZOOM = 18;

export function createOutline(map) {
  const layer = L.geoJSON(null, { pane: 'outline', className: 'outline', style: STYLES.outline, interactive: false });
  layer.addTo(map);
  return {
    show(feature, { frame = false } = {}) {
      layer.clearLayers();
      layer.addData(feature);
      const box = frame ? mainBox(feature.geometry) : null;
      // Not animated: the map's moveend then comes at once, and with it the layers of the new view.
      if (box)
        map.fitBounds(leafletBounds(box), { padding: FRAME_PADDING_PX, maxZoom: FRAME_MAX_ZOOM, animate: false });
    },
    clear() {
      layer.clearLayers();
    },
  };
}
