/**
 * The boundary tiles' pyramid and which source layer each level of the hierarchy is in from which zoom: the one
 * place this is decided (the tiles, TileJSON's `vector_layers` and the docs all read it).
 *
 * A level starts where its areas are a few pixels across or more on a 512 px tile (the size MapLibre draws a
 * 4096-extent tile at): a Dutch municipality (~10-20 km) is 10-20 px at zoom 7; a woonplaats at 9; a wijk (~1 km) at
 * 11; a building (~10-20 m) is 2-3 px at 14, the pyramid's last zoom. Past 14 a client overzooms (MapLibre and
 * OpenLayers do it themselves): at extent 4096, a zoom-14 tile in the Netherlands is ~0.4 m per unit.
 */
import type { AreaLevel } from '../../../core/elasticsearch/documents.js';

/** The pyramid: z 0 to MAX_ZOOM, x and y 0 to 2^z - 1 (anything else is a 400). */
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 14;
/** Tile coordinates per side (MVT's default); BUFFER units of the neighbouring tiles are repeated on each side. */
export const EXTENT = 4096;
export const BUFFER = 64;
/** geojson-vt's simplification tolerance in tile units at every zoom (its default): ~1.5 px of a 4096-unit tile. */
export const TOLERANCE = 3;

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
  { level: 'municipality', layer: 'municipalities', minzoom: 7 },
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
