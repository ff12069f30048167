/**
 * The boundary tiles' pyramid and which source layer each level of the hierarchy is in from which zoom: the one
 * place this is decided (the tiles, TileJSON's `vector_layers` and the docs all read it).
 *
 * A level starts at the zoom where its areas are legible and a tile of it stays light. On a 512 px tile (the size
 * MapLibre draws a 4096-extent tile at) in the Netherlands: a municipality (~10-20 km) is ~50-100 px across at zoom
 * 8, where the sample's heaviest tile is 76 kB (at zoom 7 one tile held Belgium's 581 municipalities: 147 kB); a
 * woonplaats (~3 km) ~30 px at 9; a wijk (~1 km) ~40 px at 11; a building (10-20 m) 3-7 px at 14, the pyramid's
 * last zoom. Past 14 a client overzooms (MapLibre and OpenLayers do it themselves): a zoom-14 tile is ~1.5 km wide
 * there, ~0.4 m per unit at extent 4096.
 */
import type { AreaLevel } from '../../../core/elasticsearch/documents.js';

/** The pyramid: z 0 to MAX_ZOOM, x and y 0 to 2^z - 1 (anything else is a 400). */
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 14;
/** Tile coordinates per side (MVT's default); BUFFER units of the neighbouring tiles are repeated on each side. */
export const EXTENT = 4096;
export const BUFFER = 64;
/**
 * geojson-vt's simplification tolerance, in tile units at every zoom. A boundary may move 16 units, 2 px of the 512 px
 * MapLibre draws a tile at: Belgium's municipalities at zoom 8 then cost 0.17-0.20 of their GeoJSON's bytes (0.26-0.30
 * at geojson-vt's default of 3; bench/probes/tileBytes.ts). Buildings (3-7 px across at zoom 14) keep the default:
 * 2 px would turn them into triangles.
 */
export const AREA_TOLERANCE = 16;
export const BUILDING_TOLERANCE = 3;

/** The tolerance of a level's shapes. */
export const toleranceOf = (level: TileLevel) => (level === 'building' ? BUILDING_TOLERANCE : AREA_TOLERANCE);

export type TileLevel = AreaLevel | 'building';

export interface LevelLayer {
  level: TileLevel;
  /** The source layer's name in the tiles and TileJSON. */
  layer: string;
  /** The first zoom whose tiles hold the level; every zoom up to MAX_ZOOM after it does too. */
  minzoom: number;
}

/** Largest first, as the hierarchy goes. */
export const LEVEL_LAYERS: readonly LevelLayer[] = [
  { level: 'country', layer: 'countries', minzoom: 0 },
  { level: 'province', layer: 'provinces', minzoom: 4 },
  { level: 'municipality', layer: 'municipalities', minzoom: 8 },
  { level: 'city', layer: 'cities', minzoom: 9 },
  { level: 'suburb', layer: 'suburbs', minzoom: 11 },
  { level: 'building', layer: 'buildings', minzoom: 14 },
];

/** The label points of every area level in a tile (buildings have no name), in one layer. */
export const LABEL_LAYER = 'labels';

/** The levels a tile of zoom `z` holds. */
export function levelsAt(z: number): LevelLayer[] {
  return LEVEL_LAYERS.filter((layer) => layer.minzoom <= z);
}

/** Whether `z`/`x`/`y` is a tile of the pyramid; else the parameter that is out of it. */
export function outsidePyramid(z: number, x: number, y: number): 'z' | 'x' | 'y' | undefined {
  if (!Number.isInteger(z) || z < MIN_ZOOM || z > MAX_ZOOM) return 'z';
  const n = 2 ** z;
  if (!Number.isInteger(x) || x < 0 || x >= n) return 'x';
  if (!Number.isInteger(y) || y < 0 || y >= n) return 'y';
  return undefined;
}
