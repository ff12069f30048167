/** The outline of the item chosen in the browse panel or the search box, optionally framed. */
import { mainBox } from './geometry.js';

const FRAME_PADDING_PX = 24;
/** Leaflet's 18 on its 256 px tiles: MapLibre's zooms are one lower for the same scale. */
const FRAME_MAX_ZOOM = 17;

export function createOutline(map, overlay) {
  /** `[minLon, minLat, maxLon, maxLat]` filling the view. Not animated: the map's moveend (and with it the
   * layers of the new view) then comes at once. */
  const frame = (box) =>
    map.fitBounds(
      [
        [box[0], box[1]],
        [box[2], box[3]],
      ],
      { padding: FRAME_PADDING_PX, maxZoom: FRAME_MAX_ZOOM, animate: false },
    );
  return {
    show(feature, { frame: framed = false } = {}) {
      overlay.set(feature);
      const box = framed ? mainBox(feature.geometry) : null;
      if (box) frame(box);
    },
    frame,
    clear() {
      overlay.clear();
    },
  };
}
