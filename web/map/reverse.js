/**
 * A click on the map asks /reverse what lies there: the reverse panel shows the nearest address and the areas
 * containing the point, and the map outlines those areas.
 */
import { queryString } from './api.js';
import { addressLine, distanceText } from './format.js';
import { boundaryUrl } from './places.js';
import { maplibregl } from './mapSetup.js';

const LEVELS = [
  ['country', 'Country'],
  ['province', 'Province'],
  ['municipality', 'Municipality'],
  ['city', 'City'],
  ['suburb', 'Suburb'],
  ['building', 'Building'],
];
/** Degrees around the point in which the containing building's footprint is looked for. */
const BUILDING_BOX_DEG = 0.0001;

/** The request for each containing area's outline (by its id, as a search result's), and how to find it in the answer. */
function outlineRequests({ country, province, municipality, city, suburb, building }, { lat, lon }) {
  const requests = [];
  for (const [type, area] of Object.entries({ country, province, municipality, city, suburb })) {
    if (area) requests.push([area, boundaryUrl({ type, id: area.id })]);
  }
  if (building && suburb) {
    const d = BUILDING_BOX_DEG;
    const bbox = [lon - d, lat - d, lon + d, lat + d].map((v) => v.toFixed(6)).join(',');
    requests.push([building, `/suburbs/${encodeURIComponent(suburb.id)}/buildings/geojson${queryString({ bbox })}`]);
  }
  return requests;
}

export function createReverse({ map, overlay, api, status, panel, pointText, addressText, areasList }) {
  const dot = document.createElement('div');
  dot.className = 'reverse-point';
  const spot = new maplibregl.Marker({ element: dot });
  let asked = 0;

  function showAnswer({ addresses, areas: containing }) {
    const nearest = addresses[0];
    addressText.textContent = nearest
      ? `${addressLine(nearest)} (${distanceText(nearest.distance_m)} away)`
      : 'No address within 200 m';
    areasList.replaceChildren(
      ...LEVELS.flatMap(([level, label]) => {
        const area = containing[level];
        const term = document.createElement('dt');
        term.textContent = label;
        const value = document.createElement('dd');
        value.dataset.level = level;
        value.textContent = area
          ? `${area.name}${area.name === area.local_identifier ? '' : ` (${area.local_identifier})`}`
          : 'none';
        return [term, value];
      }),
    );
  }

  async function outlineAreas(mine, containing, point) {
    const requests = outlineRequests(containing, point);
    const answers = await Promise.allSettled(requests.map(([, url]) => api(url)));
    if (mine !== asked) return;
    const features = answers.flatMap((answer, i) => {
      if (answer.status === 'rejected') {
        status.error(answer.reason);
        return [];
      }
      return answer.value.features.filter((f) => f.id === requests[i][0].id);
    });
    overlay.set({ type: 'FeatureCollection', features });
  }

  map.on('click', async (event) => {
    const mine = ++asked;
    const { lat, lng: lon } = event.lngLat.wrap();
    spot.setLngLat([lon, lat]).addTo(map);
    overlay.clear();
    panel.hidden = false;
    panel.scrollIntoView({ block: 'nearest' });
    pointText.textContent = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
    addressText.textContent = 'Looking…';
    areasList.replaceChildren();
    try {
      const answer = await api(`/reverse${queryString({ lat: lat.toFixed(6), lon: lon.toFixed(6) })}`);
      if (mine !== asked) return;
      showAnswer(answer);
      status.info(`What lies at ${pointText.textContent}: ${addressText.textContent}`);
      await outlineAreas(mine, answer.areas, { lat, lon });
    } catch (error) {
      status.error(error);
      if (mine === asked) addressText.textContent = 'The lookup failed (see the status line).';
    }
  });
}
