/**
 * The map page: wires the key dialog, the API client, the MapLibre map with the service's boundary tiles, the
 * browse panel, the search box, the reverse panel and the area selection. A base map under the boundaries comes
 * from the deployment's configuration (`config.json`), off by default: nothing reaches another host.
 */
import { createApi } from './api.js';
import { labelLanguage } from './boundaryLayers.js';
import { createBrowse } from './browse.js';
import { createKeyDialog } from './keyDialog.js';
import { createMap, drawBoundaries } from './mapSetup.js';
import { createOutline } from './outline.js';
import { createOverlays, LOWEST_FIXED_LAYER } from './overlays.js';
import { createPin } from './pin.js';
import { createPlaceView } from './placeView.js';
import { createReverse } from './reverse.js';
import { createSearch } from './search.js';
import { createSelection } from './selection.js';
import { createStatus } from './status.js';
import { createViewportLayers } from './viewportLayers.js';

const byId = (id) => document.getElementById(id);
/** The Netherlands, where the sample's provinces, municipalities and Delft are (Leaflet's zoom 7). */
const START_VIEW = { center: [5.3, 52.2], zoom: 6 };

const status = createStatus({
  line: byId('status'),
  errorBox: byId('error'),
  errorText: byId('error-text'),
  dismiss: byId('error-dismiss'),
});

/**
 * The language of the names shown (Brussels: nl/fr): the browser's own unless picked here; kept in the browser,
 * and the page reloads so every list and label shows the new one.
 */
const LANGUAGE_KEY = 'geocoder-map-language';
const languageSelect = byId('language');
languageSelect.value = localStorage.getItem(LANGUAGE_KEY) ?? '';
languageSelect.addEventListener('change', () => {
  localStorage.setItem(LANGUAGE_KEY, languageSelect.value);
  location.reload();
});
const language = labelLanguage(languageSelect.value, navigator.languages ?? [navigator.language]);

let started = false;
const keys = createKeyDialog({
  dialog: byId('key-dialog'),
  form: byId('key-form'),
  input: byId('key-input'),
  remember: byId('key-remember'),
  reason: byId('key-reason'),
  cancel: byId('key-cancel'),
  opener: byId('change-key'),
  onKey: (_key, { typed }) => (typed ? checkThenUse() : start()),
});
const api = createApi({
  keyOf: () => keys.key(),
  onUnauthorized: () => keys.refused(),
  languageOf: () => languageSelect.value,
});

/** The deployment's base map (`{ style }` or `{ raster, attribution }`), or null: served with the page. */
const { base } = await (await fetch('config.json')).json();
const mapElement = byId('map');
const map = createMap({ container: mapElement, base, keyOf: () => keys.key(), start: START_VIEW });
/**
 * The view's bounds (west,south,east,north) on the map element after every move: the map object stays inside
 * this module, and scripts reading the page (the browser tests) see where it is framed.
 */
const noteView = () => {
  const bounds = map.getBounds();
  mapElement.dataset.view = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()]
    .map((v) => v.toFixed(6))
    .join(',');
  mapElement.dataset.zoom = map.getZoom().toFixed(3);
};
map.on('moveend', noteView);
// Whether every tile of the view is in and drawn (MapLibre's idle): `data-idle` on the map element.
map.on('movestart', () => {
  mapElement.dataset.idle = 'false';
});
map.on('idle', () => {
  mapElement.dataset.idle = 'true';
});
map.on('error', (event) => {
  // A refused key on a tile asks again, as any other call's 401 does.
  if (event.error?.status === 401) keys.refused();
  status.error(event.error ?? event);
});
await new Promise((resolve) => map.once('load', resolve));
noteView();

const overlays = createOverlays(map);
const layers = createViewportLayers({ map, api, status });
const outline = createOutline(map, overlays.outline);
const pin = createPin(map);
const browse = createBrowse({ container: byId('browse-levels'), api, status, layers, outline, pin });
const selection = createSelection({ map, panel: byId('selected-panel'), text: byId('selected-area'), language });

createSearch({
  form: byId('search-form'),
  input: byId('search-input'),
  listbox: byId('search-suggestions'),
  resultsPanel: byId('search-results-panel'),
  resultsList: byId('search-results'),
  map,
  api,
  status,
  places: createPlaceView({ api, status, outline, pin }),
});
createReverse({
  map,
  overlay: overlays.reverse,
  api,
  status,
  panel: byId('reverse-panel'),
  pointText: byId('reverse-point'),
  addressText: byId('reverse-address'),
  areasList: byId('reverse-areas'),
});

const startRadios = [...document.querySelectorAll('input[name="browse-start"]')];
const startLevel = () => startRadios.find((radio) => radio.checked)?.value ?? 'country';
for (const radio of startRadios) radio.addEventListener('change', () => browse.start(startLevel()));

/** The boundary tiles (again, after a new key), noted on the map element once the first are on screen. */
async function boundaries() {
  try {
    selection.setLayers(await drawBoundaries(map, { api, language, base, below: () => LOWEST_FIXED_LAYER }));
  } catch (error) {
    return status.error(error);
  }
  map.once('idle', () => {
    if (mapElement.dataset.boundaries === 'drawn') return;
    mapElement.dataset.boundaries = 'drawn';
    // For measuring: the time from navigation until the boundaries are on screen.
    performance.mark('boundaries-drawn');
    status.info('Boundaries drawn. Click the map to see what lies there, or browse and search.');
  });
}

function start() {
  started = true;
  status.info('Loading the boundaries…');
  boundaries();
  browse.start(startLevel());
}

/**
 * A typed key is tried first with a request the browser cannot answer from its cache: answers kept from an
 * earlier key would otherwise hide that the service refuses this one.
 */
async function checkThenUse() {
  status.info('Checking the key…');
  try {
    await api('/countries?country_code=NL', { fresh: true });
  } catch (error) {
    // A 401 has already asked again.
    status.info(error.status === 401 ? 'The key was refused.' : 'The key could not be checked.');
    return status.error(error);
  }
  if (started) refreshAll();
  else start();
}

/** A new key: whatever is on screen asks again. */
function refreshAll() {
  status.info('Key changed: loading again…');
  boundaries();
  layers.refreshAll();
  browse.reload();
}

keys.start();
