/**
 * GeoJSON overlays fetched for the map's view: each asks with the view's `bbox` and `simplify`, all are asked
 * again when the map has stopped moving (debounced), and an answer that arrives after a newer question was
 * asked is dropped, so a slow answer never paints over a newer view.
 */
import { addOverlay, LOWEST_FIXED_LAYER } from './overlays.js';
import { OVERLAY_STYLES } from './styles.js';
import { debounce, viewOf } from './viewport.js';

const MOVE_DEBOUNCE_MS = 250;

export function createViewportLayers({ map, api, status }) {
  const layers = new Set();
  let made = 0;

  class ViewportLayer {
    /**
     * `urlsFor(view)`: the requests for a view (none: the layer is emptied); their features are drawn together.
     * `onData(features, view)` sees every answer that was drawn.
     */
    constructor({ urlsFor, onData }) {
      this.urlsFor = urlsFor;
      this.onData = onData;
      this.asked = 0;
      // The first is `view1`: its feature count is on the map element as `data-overlay-view1`.
      this.overlay = addOverlay(map, `view${++made}`, OVERLAY_STYLES.children, LOWEST_FIXED_LAYER);
      layers.add(this);
    }

    async refresh() {
      const asked = ++this.asked;
      const view = viewOf(map);
      const urls = this.urlsFor(view);
      const answers = await Promise.allSettled(urls.map((url) => api(url)));
      const failed = answers.filter((answer) => answer.status === 'rejected');
      for (const answer of failed) status.error(answer.reason);
      // A failed question leaves the last drawing up rather than a partial or empty one.
      if (failed.length > 0 || asked !== this.asked || !layers.has(this)) return;
      const features = answers.flatMap((answer) => answer.value.features);
      this.overlay.set({ type: 'FeatureCollection', features });
      this.onData?.(features, view);
    }

    remove() {
      layers.delete(this);
      this.overlay.remove();
    }
  }

  const refreshAll = () => Promise.all([...layers].map((layer) => layer.refresh()));
  // `data-view-layers` on the map element: `asking` from the moment the map moves until the debounced questions for
  // where it stopped are answered, then `idle` (scripts reading the page, the browser tests, wait for it).
  const mapElement = map.getContainer();
  mapElement.dataset.viewLayers = 'idle';
  let moves = 0;
  const moved = () => {
    moves++;
    mapElement.dataset.viewLayers = 'asking';
  };
  const askForView = debounce(async () => {
    const move = moves;
    try {
      await refreshAll();
    } finally {
      if (move === moves) mapElement.dataset.viewLayers = 'idle';
    }
  }, MOVE_DEBOUNCE_MS);
  map.on('movestart', moved);
  map.on('moveend', () => {
    moved();
    askForView();
  });

  return {
    add: (options) => new ViewportLayer(options),
    refreshAll,
  };
}
