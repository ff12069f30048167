/**
 * GeoJSON overlays fetched for the map's view: each asks with the view's `bbox` and `simplify`, all are asked
 * again when the map has stopped moving (debounced), and an answer that arrives after a newer question was
 * asked is dropped, so a slow answer never paints over a newer view.
 */
import { debounce, viewOf } from './viewport.js';

const MOVE_DEBOUNCE_MS = 250;

export function createViewportLayers({ map, api, status }) {
  const layers = new Set();

  class ViewportLayer {
    /**
     * `urlsFor(view)`: the requests for a view (none: the layer is emptied); their features are drawn together.
     * `onData(features, view)` sees every answer that was drawn. A `dependent` layer is not asked on moves:
     * its owner refreshes it (the provinces follow the countries' answer).
     */
    constructor({ pane, className, style, urlsFor, onData, dependent = false }) {
      this.urlsFor = urlsFor;
      this.onData = onData;
      this.dependent = dependent;
      this.asked = 0;
      this.geojson = L.geoJSON(null, { pane, className, style, interactive: false }).addTo(map);
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
      this.geojson.clearLayers();
      this.geojson.addData({ type: 'FeatureCollection', features });
      this.onData?.(features, view);
    }

    remove() {
      layers.delete(this);
      this.geojson.remove();
    }
  }

  const refreshAll = () => Promise.all([...layers].filter((layer) => !layer.dependent).map((layer) => layer.refresh()));
  map.on('moveend', debounce(refreshAll, MOVE_DEBOUNCE_MS));

  return {
    add: (options) => new ViewportLayer(options),
    refreshAll,
  };
}
