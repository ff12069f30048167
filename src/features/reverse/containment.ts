/**
 * Pure point-in-polygon over compact polygons, and an in-memory index of area polygons (GET /reverse).
 *
 * A polygon is kept as one Float64Array of lon/lat pairs plus the start of each ring (16 bytes per vertex,
 * against ~60-80 for GeoJSON's nested arrays), and tested with the even-odd rule over all its rings, so holes
 * need no special case. Every polygon of a MultiPolygon is indexed on its own box (flatbush), so an area with
 * far-flung parts (France and its overseas departments) is a candidate only near one of its parts, not
 * anywhere within its whole envelope.
 */
import Flatbush from 'flatbush';
import type { Geometry, Position } from 'geojson';

export interface FlatPolygon {
  /** lon0, lat0, lon1, lat1, … of every ring, rings one after the other. */
  coords: Float64Array;
  /** Index (in vertices) where each ring starts; a ring ends where the next starts. */
  ringStarts: Uint32Array;
  /** The polygon's own envelope. */
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** A GeoJSON Polygon's rings (outer ring first, then holes) as one compact polygon. */
export function flattenPolygon(rings: Position[][]): FlatPolygon {
  let vertices = 0;
  for (const ring of rings) vertices += ring.length;
  const coords = new Float64Array(vertices * 2);
  const ringStarts = new Uint32Array(rings.length);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  let v = 0;
  rings.forEach((ring, r) => {
    ringStarts[r] = v;
    for (const position of ring) {
      const lon = position[0] as number;
      const lat = position[1] as number;
      coords[v * 2] = lon;
      coords[v * 2 + 1] = lat;
      v++;
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
    }
  });
  return { coords, ringStarts, minLon, minLat, maxLon, maxLat };
}

/** The polygons of a Polygon or MultiPolygon; nothing for any other geometry (a point has no inside). */
export function polygonsOf(geometry: Geometry | undefined | null): FlatPolygon[] {
  if (!geometry) return [];
  if (geometry.type === 'Polygon') return [flattenPolygon(geometry.coordinates)];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates.map(flattenPolygon);
  if (geometry.type === 'GeometryCollection') return geometry.geometries.flatMap(polygonsOf);
  return [];
}

/** Even-odd ray casting over every ring: inside the outer ring and outside every hole. */
export function polygonContains(p: FlatPolygon, lon: number, lat: number): boolean {
  if (lon < p.minLon || lon > p.maxLon || lat < p.minLat || lat > p.maxLat) return false;
  const { coords, ringStarts } = p;
  const vertexCount = coords.length / 2;
  let inside = false;
  for (let r = 0; r < ringStarts.length; r++) {
    const start = ringStarts[r] as number;
    const end = r + 1 < ringStarts.length ? (ringStarts[r + 1] as number) : vertexCount;
    if (end - start < 3) continue;
    // Edges (j -> i), the last vertex to the first included (a closed ring repeats it: a zero-length edge).
    let j = end - 1;
    for (let i = start; i < end; i++) {
      const yi = coords[i * 2 + 1] as number;
      const yj = coords[j * 2 + 1] as number;
      if (yi > lat !== yj > lat) {
        const xi = coords[i * 2] as number;
        const xj = coords[j * 2] as number;
        if (lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
      j = i;
    }
  }
  return inside;
}

export function geometryContains(polygons: readonly FlatPolygon[], lon: number, lat: number): boolean {
  return polygons.some((p) => polygonContains(p, lon, lat));
}

/** Bytes of a compact polygon's arrays. */
export function polygonBytes(p: FlatPolygon): number {
  return p.coords.byteLength + p.ringStarts.byteLength;
}

/** What the index needs of an area: where it is, how big its envelope is (the tie-break), and its shape. */
export interface IndexedArea {
  level: string;
  id: string;
  /** Area of the stored envelope in square degrees: where areas of one level overlap, the smallest wins. */
  envelopeArea: number;
  polygons: FlatPolygon[];
}

export interface AreaIndexStats {
  areas: number;
  polygons: number;
  vertices: number;
  /** Typed arrays of the polygons and the R-tree, plus a fixed estimate per area for its record. */
  bytes: number;
}

const PER_AREA_OVERHEAD_BYTES = 400;

/**
 * The areas containing a point: an R-tree over every polygon's box gives the candidates, the exact test
 * confirms them. Per level, the containing area with the smallest envelope wins (then the lowest id), the
 * same most-specific choice the indexer makes where generalised borders overlap.
 */
export class AreaIndex<A extends IndexedArea> {
  private readonly tree: Flatbush | undefined;
  /** Per indexed polygon: which area it belongs to, and the polygon. */
  private readonly owner: Uint32Array;
  private readonly parts: FlatPolygon[];
  readonly stats: AreaIndexStats;

  constructor(readonly areas: readonly A[]) {
    this.parts = [];
    const owners: number[] = [];
    areas.forEach((area, a) => {
      for (const p of area.polygons) {
        this.parts.push(p);
        owners.push(a);
      }
    });
    this.owner = Uint32Array.from(owners);
    if (this.parts.length > 0) {
      const tree = new Flatbush(this.parts.length);
      for (const p of this.parts) tree.add(p.minLon, p.minLat, p.maxLon, p.maxLat);
      tree.finish();
      this.tree = tree;
    }
    let vertices = 0;
    let bytes = this.owner.byteLength + (this.tree?.data.byteLength ?? 0) + areas.length * PER_AREA_OVERHEAD_BYTES;
    for (const p of this.parts) {
      vertices += p.coords.length / 2;
      bytes += polygonBytes(p);
    }
    this.stats = { areas: areas.length, polygons: this.parts.length, vertices, bytes };
  }

  /** Per level, the most specific area containing the point. */
  containing(lon: number, lat: number): Map<string, A> {
    const best = new Map<string, A>();
    if (!this.tree) return best;
    for (const i of this.tree.search(lon, lat, lon, lat)) {
      const area = this.areas[this.owner[i] as number] as A;
      const current = best.get(area.level);
      if (current === area || (current && !moreSpecific(area, current))) continue;
      if (polygonContains(this.parts[i] as FlatPolygon, lon, lat)) best.set(area.level, area);
    }
    return best;
  }
}

function moreSpecific(a: IndexedArea, b: IndexedArea): boolean {
  return a.envelopeArea < b.envelopeArea || (a.envelopeArea === b.envelopeArea && a.id < b.id);
}

/** Area of a stored envelope in square degrees. */
export function envelopeArea(b: { min_lon: number; min_lat: number; max_lon: number; max_lat: number }): number {
  return (b.max_lon - b.min_lon) * (b.max_lat - b.min_lat);
}

/**
 * Where a generation has buildings at all: the web-mercator tiles (at COVERAGE_ZOOM, ~1.5 x 2.4 km in the
 * Netherlands) holding a building's centroid, each widened by its eight neighbours so a footprint reaching over
 * a tile edge is still covered. A point outside every covered tile cannot lie in a building, so its building
 * search is skipped (the bulk data has no buildings at all; the Delft sample has them only around Delft).
 */
export const COVERAGE_ZOOM = 14;

export function tileOf(lon: number, lat: number, zoom: number = COVERAGE_ZOOM): { x: number; y: number } {
  const n = 2 ** zoom;
  const clampedLat = Math.max(-85.05112878, Math.min(85.05112878, lat));
  const rad = (clampedLat * Math.PI) / 180;
  const x = Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  const y = Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * n)));
  return { x, y };
}

export class TileCoverage {
  private readonly tiles = new Set<string>();

  /** `keys` as Elasticsearch's geotile_grid names them (`zoom/x/y`); `everywhere` when the list may be incomplete. */
  constructor(
    keys: readonly string[],
    readonly everywhere = false,
  ) {
    for (const key of keys) {
      const [, x, y] = key.split('/').map(Number) as [number, number, number];
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) this.tiles.add(`${x + dx}/${y + dy}`);
    }
  }

  covers(lon: number, lat: number): boolean {
    if (this.everywhere) return true;
    const { x, y } = tileOf(lon, lat);
    return this.tiles.has(`${x}/${y}`);
  }
}
