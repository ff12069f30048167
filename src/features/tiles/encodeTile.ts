/**
 * One Mapbox Vector Tile (spec 2.1) from the levels' parts of it (pure): a source layer per level that has shapes
 * in the tile, and LABEL_LAYER with the label points of them all; undefined when the tile holds nothing (a 204).
 */
import type { GeoJSONVTFeature, GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { LevelTile } from './levelTiles.js';
import { EXTENT, LABEL_LAYER } from './zoomTable.js';

export const MVT_VERSION = 2;

export function encodeTile(parts: readonly { layer: string; tile: LevelTile }[]): Buffer | undefined {
  const layers: Record<string, GeoJSONVTTile> = {};
  const labels: GeoJSONVTFeature[] = [];
  for (const { layer, tile } of parts) {
    if (tile.shapes.length > 0) layers[layer] = { features: tile.shapes } as GeoJSONVTTile;
    labels.push(...tile.labels);
  }
  if (labels.length > 0) layers[LABEL_LAYER] = { features: labels } as GeoJSONVTTile;
  if (Object.keys(layers).length === 0) return undefined;
  const bytes = fromGeojsonVt(layers, { version: MVT_VERSION, extent: EXTENT });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
