/**
 * The tiles of one level (pure, no I/O): the tile of z/x/y split into the level's shapes and its label points, cut
 * with geojson-vt from the level's features, projected once into the unit square (unitSquare.ts).
 *
 * Down to REGION_ZOOM, from one index over the whole level. geojson-vt cuts tiles down to INDEX_MAX_ZOOM when the
 * index is built and any deeper tile on first request, and keeps every tile it cut (with its geometry, and the
 * clipped source of the deepest) for the life of the index: a client walking a large country's tiles would grow it
 * without end. Each request below INDEX_MAX_ZOOM is therefore charged what it may have added: the points of the tile
 * it answers (kept in the tile once transformed) plus REQUEST_COST for the tiles cut on the way down (80-135 bytes of
 * heap per point charged, measured); once an index has been charged `maxCost`, it is built anew from the level's
 * features and starts empty again.
 *
 * Past REGION_ZOOM, each tile on its own from the region around it (regionTiles.ts; the regions' shapes bounded by
 * `maxCost` points as well), so that the many tiles a panning map asks there neither grow the whole index nor make it
 * be built anew.
 * The body cache in front of both keeps answered tiles, so a tile asked for again rarely gets here.
 */
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTOptions } from '@maplibre/geojson-vt';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { REGION_ZOOM, type RegionStats, RegionTiles } from './regionTiles.js';
import type { TileProperties } from './tileFeatures.js';
import { projected } from './unitSquare.js';
import { BUFFER, EXTENT, MAX_ZOOM } from './zoomTable.js';

/** Where geojson-vt stops cutting when it builds an index (its default): deeper tiles are cut on request. */
export const INDEX_MAX_ZOOM = 5;

/** geojson-vt's options for a level simplified with `tolerance` (zoomTable.ts' toleranceOf), in longitude and latitude. */
export const geojsonVtOptions = (tolerance: number): GeoJSONVTOptions => ({
  maxZoom: MAX_ZOOM,
  indexMaxZoom: INDEX_MAX_ZOOM,
  tolerance,
  extent: EXTENT,
  buffer: BUFFER,
});

/** MVT geometry types (vector_tile.proto): 1 point, 3 polygon. */
const POINT = 1;

export interface LevelTile {
  shapes: GeoJSONVTFeature[];
  labels: GeoJSONVTFeature[];
}

/**
 * What a request below INDEX_MAX_ZOOM whose tile holds something of the level is charged besides the tile's points:
 * the tiles cut on the way down (measured with bench/probes/tileMemory.ts: a walk over zoom-14 tiles inside a country keeps
 * ~2.6 kB per request, and a point charged stands for 80-135 bytes). A tile with nothing of the level was cut from an
 * ancestor with nothing either, or from none: it adds next to nothing.
 */
export const REQUEST_COST = 32;

export interface LevelTilesStats extends RegionStats {
  features: number;
  /** What requests between INDEX_MAX_ZOOM and REGION_ZOOM were charged since the index was last built, in points. */
  cost: number;
  /** How often the index was built anew after `maxCost`. */
  rebuilds: number;
}

export class LevelTiles {
  private index: GeoJSONVT | undefined;
  private cost = 0;
  private rebuilds = 0;
  private readonly collection: FeatureCollection<Geometry, TileProperties>;
  private readonly options: GeoJSONVTOptions;
  private readonly regions: RegionTiles;

  /** `features` in longitude and latitude. */
  constructor(
    features: Feature<Geometry, TileProperties>[],
    private readonly maxCost: number,
    tolerance: number,
  ) {
    this.collection = { type: 'FeatureCollection', features: features.map(projected) };
    this.options = { ...geojsonVtOptions(tolerance), coordinates: 'unitSquare' };
    this.regions = new RegionTiles(this.collection.features, this.options, maxCost);
  }

  /** Builds the index now (else the first tile down to REGION_ZOOM does). */
  build(): this {
    this.index = new GeoJSONVT(this.collection, this.options);
    this.cost = 0;
    return this;
  }

  /** The level's shapes and label points in tile z/x/y (nothing: both empty). */
  tile(z: number, x: number, y: number): LevelTile {
    const deep = z > REGION_ZOOM;
    if (!deep && (!this.index || this.cost >= this.maxCost)) {
      if (this.index) this.rebuilds++;
      this.build();
    }
    const tile = deep ? this.regions.tile(z, x, y) : this.index!.getTile(z, x, y);
    const shapes: GeoJSONVTFeature[] = [];
    const labels: GeoJSONVTFeature[] = [];
    let points = 0;
    for (const feature of tile?.features ?? []) {
      if (feature.type === POINT) labels.push(feature);
      else {
        for (const ring of feature.geometry) points += ring.length;
        const shape = withoutCollapsedRings(feature);
        if (shape) shapes.push(shape);
      }
    }
    // A deep tile is cut on its own and kept nowhere here: nothing to charge.
    if (!deep && z > INDEX_MAX_ZOOM && (shapes.length > 0 || labels.length > 0))
      this.cost += REQUEST_COST + points + labels.length;
    return { shapes, labels };
  }

  get stats(): LevelTilesStats {
    return {
      features: this.collection.features.length,
      cost: this.cost,
      rebuilds: this.rebuilds,
      ...this.regions.stats,
    };
  }
}

/** Twice the surveyor's area of a ring in tile coordinates (y down): positive for an exterior ring (MVT 2.1 4.3.4.4). */
export function ringArea2(ring: readonly [number, number][]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  }
  return sum;
}

/**
 * The polygon without the rings that rounding to whole tile units collapsed to no area (an islet at a low zoom):
 * MVT 2.1 wants each polygon's exterior ring to have a positive area, and a hole before any exterior ring that is
 * left has no polygon to belong to. Undefined when no ring is left.
 */
export function withoutCollapsedRings(feature: GeoJSONVTFeature): GeoJSONVTFeature | undefined {
  if (feature.type === POINT) return feature;
  const rings: [number, number][][] = [];
  for (const ring of feature.geometry) {
    const area = ringArea2(ring);
    if (area === 0 || (area < 0 && rings.length === 0)) continue;
    rings.push(ring);
  }
  if (rings.length === feature.geometry.length) return feature;
  return rings.length > 0 ? { ...feature, geometry: rings } : undefined;
}
