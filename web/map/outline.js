/** The outline of the item chosen in the browse panel or the search box, optionally framed. */
import { leafletBounds, mainBox } from './geometry.js';
import { STYLES } from './styles.js';

const FRAME_PADDING_PX = [24, 24];
const FRAME_MAX_ZOOM = 18;

export function createOutline(map) {
  const layer = L.geoJSON(null, { pane: 'outline', className: 'outline', style: STYLES.outline, interactive: false });
  layer.addTo(map);
  /** `[minLon, minLat, maxLon, maxLat]` filling the view. Not animated: the map's moveend (and with it the
   * layers of the new view) then comes at once. */
  const frame = (box) =>
    map.fitBounds(leafletBounds(box), { padding: FRAME_PADDING_PX, maxZoom: FRAME_MAX_ZOOM, animate: false });
  return {
    show(feature, { frame: framed = false } = {}) {
      layer.clearLayers();
      layer.addData(feature);
      const box = framed ? mainBox(feature.geometry) : null;
      if (box) frame(box);
    },
    frame,
    clear() {
      layer.clearLayers();
    },
  };
}
