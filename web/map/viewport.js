/** Pure helpers turning the map's view into API parameters (`bbox`, `simplify`) and back. */

const EARTH_CIRCUMFERENCE_M = 40_075_016.686;
const TILE_SIZE_PX = 256;
/** The API's bound on `simplify`. */
const MAX_SIMPLIFY_M = 100_000;

const clamp = (value, min, max) => Math.min(max, Math.max(min, value));
const round = (value, decimals) => Number(value.toFixed(decimals));

/**
 * `minLon,minLat,maxLon,maxLat` of a view, clamped to the world: zoomed far out, Leaflet's bounds run past
 * ±180°, which the API refuses (it reads a box with minLon > maxLon as crossing the antimeridian).
 */
export function bboxParam({ west, south, east, north }) {
  const minLon = clamp(west, -180, 180);
  const maxLon = clamp(east, -180, 180);
  const minLat = clamp(south, -90, 90);
  const maxLat = clamp(north, -90, 90);
  return [minLon, minLat, maxLon, maxLat].map((v) => round(v, 5)).join(',');
}

/**
 * Douglas-Peucker tolerance of about one screen pixel: ground metres per pixel at the view's centre, rounded
 * to two significant digits so nearby views ask the same question.
 */
export function simplifyParam(zoom, latitude) {
  const metresPerPixel = (EARTH_CIRCUMFERENCE_M * Math.cos((latitude * Math.PI) / 180)) / (TILE_SIZE_PX * 2 ** zoom);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(metresPerPixel, 1))) - 1);
  return clamp(Math.round(metresPerPixel / magnitude) * magnitude, 1, MAX_SIMPLIFY_M);
}

/**
 * The view's bounds widened outward to a grid of `360 / 2^zoom` degrees (about one tile width at that zoom):
 * small pans then ask the same `bbox`, so the browser's cache (60 s) and the service's body cache answer them
 * instead of a fresh query and a fresh simplification. A raw viewport would make every pan a new question.
 */
export function snappedBounds({ west, south, east, north }, zoom) {
  const cell = 360 / 2 ** Math.max(0, Math.round(zoom));
  return {
    west: Math.floor(west / cell) * cell,
    south: Math.floor(south / cell) * cell,
    east: Math.ceil(east / cell) * cell,
    north: Math.ceil(north / cell) * cell,
  };
}

/**
 * The API parameters of the map's current view (snapped outward to the zoom's grid), in Leaflet's zooms (256 px
 * tiles), one more than MapLibre's (512 px) for the same scale.
 */
export function viewOf(map) {
  const bounds = map.getBounds();
  const zoom = map.getZoom() + 1;
  const snapped = snappedBounds(
    { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() },
    zoom,
  );
  // The tolerance from the snapped box's latitude, not the centre's: a pan must not change it either.
  return { zoom, bbox: bboxParam(snapped), simplify: simplifyParam(zoom, (snapped.south + snapped.north) / 2) };
}

/** `[minLon, minLat, maxLon, maxLat]` boxes that overlap or touch. */
export function boxesIntersect(a, b) {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function debounce(fn, ms) {
  let timer;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
