/**
 * The map page: wires the key dialog, the API client, the base layer, the browse panel, the search box and
 * the reverse panel to one Leaflet map. Everything is drawn from this service's own endpoints: no tiles.
 */
import { createApi } from './api.js';
import { createBaseLayers } from './baseLayers.js';
import { createBrowse } from './browse.js';
import { createKeyDialog } from './keyDialog.js';
import { createOutline } from './outline.js';
import { createPin } from './pin.js';
import { createPlaceView } from './placeView.js';
import { createReverse } from './reverse.js';
import { createSearch } from './search.js';
import { createStatus } from './status.js';
import { createPanes } from './styles.js';
import { createViewportLayers } from './viewportLayers.js';

const byId = (id) => document.getElementById(id);
/** The Netherlands, where the sample's provinces, municipalities and Delft are. */
const START_VIEW = { center: [52.2, 5.3], zoom: 7 };

// Vectors are drawn at their own longitudes only: panning onto a copy of the world would show an empty sea.
const WORLD = [
  [-90, -180],
  [90, 180],
];
const map = L.map('map', { ...START_VIEW, minZoom: 2, maxZoom: 19, maxBounds: WORLD, maxBoundsViscosity: 1 });
map.attributionControl.addAttribution(
  'Boundaries: Natural Earth, © CBS / Kadaster; addresses: BAG; suburbs and buildings: © OpenStreetMap contributors',
);
createPanes(map);
/**
 * The view's bounds (west,south,east,north) on the map element after every move: the map object stays inside
 * this module, and scripts reading the page (the browser tests) see where it is framed.
 */
const mapElement = byId('map');
const noteView = () => {
  const bounds = map.getBounds();
  mapElement.dataset.view = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()]
    .map((v) => v.toFixed(6))
    .join(',');
};
map.on('moveend', noteView);
noteView();

const status = createStatus({
  line: byId('status'),
  errorBox: byId('error'),
  errorText: byId('error-text'),
  dismiss: byId('error-dismiss'),
});

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
const api = createApi({
  keyOf: () => keys.key(),
  onUnauthorized: () => keys.refused(),
  languageOf: () => languageSelect.value,
});

const layers = createViewportLayers({ map, api, status });
const outline = createOutline(map);
const pin = createPin(map);
let base;
const browse = createBrowse({
  container: byId('browse-levels'),
  api,
  status,
  layers,
  outline,
  pin,
  onChange: () => base?.refreshProvinces(),
});
base = createBaseLayers({ layers, status, leaveOut: (countryId) => browse.drawsChildrenOf(countryId) });

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

function start() {
  started = true;
  status.info('Loading the countries…');
  layers.refreshAll();
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
  layers.refreshAll();
  browse.reload();
}

keys.start();
