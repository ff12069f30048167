/**
 * A level's tiles past REGION_ZOOM (pure, no I/O), the zooms a panning map asks most and mostly new: each cut on its
 * own (geojson-vt's geoJSONToTile, nothing kept) from the level's shapes clipped to the region around it (its
 * REGION_ZOOM tile), not from the level's whole index.
 *
 * The whole index keeps every tile it cuts, with the clipped source of the deepest and of their siblings: tiles asked
 * all over the Netherlands grew it by ~15-25 kB each until it had to be built anew, which stalled every request for
 * the 50-150 ms that takes, and the first tile under a tile cut at build time clipped that tile's whole source down
 * up to nine zooms. A region holds only its clipped shapes (a few hundred to a few thousand points), kept in an LRU
 * bounded by their points: the least recently asked regions are dropped first, and one is clipped again in well under
 * a millisecond when asked again. Each tile then costs its region's points once (simplification and one clip).
 *
 * A region's shapes are clipped to its square grown by the buffer of a REGION_ZOOM tile, which holds every deeper
 * tile's buffer: where a shape leaves the region its clipped edge is outside every tile drawn from it. Each region
 * simplifies its own piece of a boundary (geojson-vt's simplification per zoom is decided per ring): across a region's
 * edge, the two sides may keep different points, at most the tolerance apart (2 px).
 */
import { geoJSONToTile, type GeoJSONVTOptions, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import Flatbush from 'flatbush';
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { LRUCache } from 'lru-cache';
import type { TileProperties } from './tileFeatures.js';
import { type Box, clipPolygon, ringBox, type Ring, tileBox } from './unitSquare.js';
import { BUFFER, EXTENT } from './zoomTable.js';

/** Tiles deeper than this zoom come from regions: the squares of this zoom (~25-40 km in NL and BE). */
export const REGION_ZOOM = 10;
/**
 * A tile of zoom z is cut from the region of zoom z - SUBREGION_DEPTH around it (REGION_ZOOM at least), itself clipped
 * from its REGION_ZOOM region: a zoom-14 tile's region is 4 x 4 tiles, ~1/4 of the boundary a REGION_ZOOM region holds.
 */
export const SUBREGION_DEPTH = 2;
/** A region's margin, in its own widths: its own tile's buffer (deeper tiles' buffers are half of it or less). */
const REGION_MARGIN = BUFFER / EXTENT;

/** A polygon of a feature (each polygon of a multipolygon on its own) or a label point. */
interface Part {
  feature: number;
  polygon?: Ring[];
  point?: Position;
}

/** What a region holds of one feature: its polygons clipped to the region, or its label point. */
interface Piece {
  properties: TileProperties;
  polygons: Ring[][];
  point?: Position;
}

interface Region {
  pieces: Piece[];
  shapes: FeatureCollection<Geometry, TileProperties>;
  /** Its points (and one per feature): what it takes of the budget. */
  cost: number;
}

/** A region with nothing in it (kept too, so that asking again costs nothing). */
const EMPTY: Region = { pieces: [], shapes: { type: 'FeatureCollection', features: [] }, cost: 1 };

/**
 * The regions' budget, in points, against a level's (`maxCost`, what its whole index may be charged): twice it.
 * Regions hold only plain GeoJSON (~37 bytes of heap a point, measured with bench/probes/tileCut.ts over 8,000 tiles of
 * zooms 12-14 scattered over NL and BE), and zoom-14 tiles' regions hold again what their REGION_ZOOM region holds:
 * with 400,000 points the bulk data's municipalities and cities keep most of the Netherlands' regions (~15 MB each).
 */
export const regionBudget = (maxCost: number) => 2 * maxCost;

export interface RegionStats {
  regions: number;
  regionCost: number;
}

export class RegionTiles {
  private readonly parts: Part[] = [];
  private readonly tree: Flatbush | undefined;
  private readonly regions: LRUCache<string, Region>;

  /** `features` in the unit square (unitSquare.ts); `options` the level's, with `coordinates: 'unitSquare'`. */
  constructor(
    private readonly features: readonly Feature<Geometry, TileProperties>[],
    private readonly options: GeoJSONVTOptions,
    maxCost: number,
  ) {
    const boxes: Box[] = [];
    features.forEach((feature, i) => {
      const g = feature.geometry;
      const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
      for (const polygon of polygons) {
        this.parts.push({ feature: i, polygon });
        boxes.push(ringBox(polygon[0]!));
      }
      if (g.type === 'Point') {
        this.parts.push({ feature: i, point: g.coordinates });
        boxes.push([g.coordinates[0]!, g.coordinates[1]!, g.coordinates[0]!, g.coordinates[1]!]);
      }
    });
    if (boxes.length > 0) {
      const tree = new Flatbush(boxes.length);
      for (const b of boxes) tree.add(b[0], b[1], b[2], b[3]);
      tree.finish();
      this.tree = tree;
    }
    // An infinite budget (the tests' whole-level comparison) keeps every region.
    const max = Number.isFinite(maxCost) ? regionBudget(maxCost) : Number.MAX_SAFE_INTEGER;
    this.regions = new LRUCache({ maxSize: max, maxEntrySize: max });
  }

  /** Tile z/x/y (z > REGION_ZOOM), in tile coordinates as geojson-vt gives it; null when it holds nothing. */
  tile(z: number, x: number, y: number): GeoJSONVTTile | null {
    const rz = Math.max(REGION_ZOOM, z - SUBREGION_DEPTH);
    const region = this.region(rz, x >> (z - rz), y >> (z - rz));
    if (region.pieces.length === 0) return null;
    const tile = geoJSONToTile(region.shapes, z, x, y, { ...this.options, clip: true });
    return tile.features.length > 0 ? tile : null;
  }

  get stats(): RegionStats {
    return { regions: this.regions.size, regionCost: this.regions.calculatedSize };
  }

  /** Region rx/ry of zoom rz: REGION_ZOOM's from the level's features, deeper ones from their REGION_ZOOM region. */
  private region(rz: number, rx: number, ry: number): Region {
    const key = `${rz}/${rx}/${ry}`;
    const kept = this.regions.get(key);
    if (kept) return kept;
    const box = tileBox(rz, rx, ry, REGION_MARGIN);
    let pieces: Piece[];
    if (rz === REGION_ZOOM) pieces = this.clipFeatures(box);
    else {
      const shift = rz - REGION_ZOOM;
      pieces = clipPieces(this.region(REGION_ZOOM, rx >> shift, ry >> shift).pieces, box);
    }
    const region = pieces.length === 0 ? EMPTY : regionOf(pieces);
    this.regions.set(key, region, { size: region.cost });
    return region;
  }

  private clipFeatures(box: Box): Piece[] {
    if (!this.tree) return [];
    const pieces = new Map<number, Piece>();
    for (const i of this.tree.search(box[0], box[1], box[2], box[3])) {
      const part = this.parts[i]!;
      const polygon = part.polygon && clipPolygon(part.polygon, box);
      if (!part.point && !polygon) continue;
      let piece = pieces.get(part.feature);
      if (!piece)
        pieces.set(part.feature, (piece = { properties: this.features[part.feature]!.properties, polygons: [] }));
      if (part.point) piece.point = part.point;
      if (polygon) piece.polygons.push(polygon);
    }
    return [...pieces.values()];
  }
}

function clipPieces(pieces: readonly Piece[], box: Box): Piece[] {
  const [minX, minY, maxX, maxY] = box;
  const clipped: Piece[] = [];
  for (const { properties, polygons, point } of pieces) {
    const inside = point && point[0]! >= minX && point[0]! <= maxX && point[1]! >= minY && point[1]! <= maxY;
    const kept = polygons.flatMap((polygon) => {
      const clippedPolygon = clipPolygon(polygon, box);
      return clippedPolygon ? [clippedPolygon] : [];
    });
    if (inside || kept.length > 0) clipped.push({ properties, polygons: kept, ...(inside ? { point } : {}) });
  }
  return clipped;
}

function regionOf(pieces: Piece[]): Region {
  const features: Feature<Geometry, TileProperties>[] = [];
  let points = 0;
  for (const { properties, polygons, point } of pieces) {
    if (point) features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: point }, properties });
    for (const polygon of polygons) for (const ring of polygon) points += ring.length;
    if (polygons.length === 1) {
      features.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: polygons[0]! }, properties });
    } else if (polygons.length > 1) {
      features.push({ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: polygons }, properties });
    }
  }
  return { pieces, shapes: { type: 'FeatureCollection', features }, cost: points + features.length };
}
