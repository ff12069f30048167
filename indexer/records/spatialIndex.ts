/**
 * Point-in-polygon lookups over a fixed set of polygons: a static R-tree (flatbush) over their boxes
 * narrows the candidates, turf decides containment. Built once per level after the level is loaded.
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import Flatbush from 'flatbush';
import type { BoundingBox } from '../../core/elasticsearch/documents.js';
import type { PolygonGeometry } from '../geometry/checks.js';

export interface SpatialItem {
  geometry: PolygonGeometry;
  bbox: BoundingBox;
}

export class PolygonIndex<T extends SpatialItem> {
  private readonly tree: Flatbush | undefined;
  private readonly areas: number[];

  constructor(readonly items: readonly T[]) {
    this.areas = items.map((i) => (i.bbox.max_lon - i.bbox.min_lon) * (i.bbox.max_lat - i.bbox.min_lat));
    if (items.length === 0) {
      this.tree = undefined;
      return;
    }
    const tree = new Flatbush(items.length);
    for (const item of items) tree.add(item.bbox.min_lon, item.bbox.min_lat, item.bbox.max_lon, item.bbox.max_lat);
    tree.finish();
    this.tree = tree;
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * The polygon containing the point. Where polygons overlap (generalised borders, a building drawn
   * twice) the one with the smallest box wins, then the earliest: a deterministic, most-specific choice.
   */
  find(lon: number, lat: number): T | undefined {
    if (!this.tree) return undefined;
    const candidates = this.tree.search(lon, lat, lon, lat);
    let best: number | undefined;
    for (const i of candidates) {
      const item = this.items[i] as T;
      if (!booleanPointInPolygon([lon, lat], item.geometry)) continue;
      if (
        best === undefined ||
        (this.areas[i] as number) < (this.areas[best] as number) ||
        ((this.areas[i] as number) === (this.areas[best] as number) && i < best)
      ) {
        best = i;
      }
    }
    return best === undefined ? undefined : this.items[best];
  }
}
