/**
 * The base layer, instead of tiles: the countries of the view, simplified to about a pixel, and from
 * PROVINCES_FROM_ZOOM on the provinces of the countries in view (where the index holds any: the Netherlands
 * in the sample).
 */
import { queryString } from './api.js';
import { STYLES } from './styles.js';

const PROVINCES_FROM_ZOOM = 7;

export function createBaseLayers({ layers, status, leaveOut }) {
  let countriesInView = [];
  let firstDrawn = false;

  const provinces = layers.add({
    pane: 'provinces',
    className: 'area-province base-province',
    style: STYLES.province,
    dependent: true,
    urlsFor: (view) =>
      view.zoom < PROVINCES_FROM_ZOOM
        ? []
        : countriesInView
            .filter((countryId) => !leaveOut(countryId))
            .map(
              (countryId) =>
                `/countries/${encodeURIComponent(countryId)}/provinces/geojson${queryString({ bbox: view.bbox, simplify: view.simplify })}`,
            ),
  });

  layers.add({
    pane: 'countries',
    className: 'area-country',
    style: STYLES.country,
    urlsFor: (view) => [`/countries/geojson${queryString({ bbox: view.bbox, simplify: view.simplify })}`],
    onData: (features) => {
      if (!firstDrawn) {
        firstDrawn = true;
        // For measuring: the time from navigation until the base layer is on screen.
        performance.mark('countries-drawn');
        status.info('Countries drawn. Click the map to see what lies there, or browse and search.');
      }
      countriesInView = features.map((feature) => feature.id);
      provinces.refresh();
    },
  });

  return { refreshProvinces: () => provinces.refresh() };
}
