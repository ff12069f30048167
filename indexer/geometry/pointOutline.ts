/**
 * An outline for a set of points (a derived city's addresses): bounded memory while the points stream
 * by, a concave hull (mapbox `concaveman`) when they end, buffered (JSTS) so the outline covers every
 * point and never has zero area, even for one address or a single straight street.
 */
import concaveman from 'concaveman';
import type { Polygon } from 'geojson';
import { type JtsGeometry, toGeoJson, toJts } from './jsts.js';
import type { PolygonGeometry } from './repair.js';

/** About 70-110 m in the Netherlands: finer than a street block, coarse enough to thin 2 M addresses. */
const START_CELL_DEGREES = 0.001;
/** Distinct cells kept per set; past it the grid doubles, so memory per city stays bounded. */
const MAX_CELLS = 1024;
const OFFSET = 2 ** 20;

/**
 * Points thinned to one per grid cell (the cell's centre). A city of 100 000 addresses keeps at most
 * MAX_CELLS numbers; when the cells run out the grid gets coarser and the kept cells are re-thinned.
 */
export class ThinnedPoints {
  private cell = START_CELL_DEGREES;
  private cells = new Set<number>();

  add(lon: number, lat: number): void {
    this.cells.add(this.keyOf(lon, lat));
    while (this.cells.size > MAX_CELLS) this.coarsen();
  }

  get cellDegrees(): number {
    return this.cell;
  }

  points(): [number, number][] {
    return [...this.cells].map((k) => this.centreOf(k));
  }

  private keyOf(lon: number, lat: number): number {
    const x = Math.floor(lon / this.cell) + OFFSET;
    const y = Math.floor(lat / this.cell) + OFFSET;
    return x * 2 * OFFSET + y;
  }

  private centreOf(key: number): [number, number] {
    const x = Math.floor(key / (2 * OFFSET)) - OFFSET;
    const y = (key % (2 * OFFSET)) - OFFSET;
    return [(x + 0.5) * this.cell, (y + 0.5) * this.cell];
  }

  private coarsen(): void {
    const centres = this.points();
    this.cell *= 2;
    this.cells = new Set(centres.map(([lon, lat]) => this.keyOf(lon, lat)));
  }
}

/**
 * The concave hull of the kept points, widened by one cell: the thinning moved each address by at
 * most half a cell diagonal (0.71 cells), so the buffer puts every address inside the outline.
 */
export function outlineOf(points: ThinnedPoints): PolygonGeometry | undefined {
  const coordinates = points.points();
  if (!coordinates.length) return undefined;
  const ring = coordinates.length >= 3 ? concaveman(coordinates, 2) : [];
  const hull: Polygon = { type: 'Polygon', coordinates: [ring] };
  // One or two cells, or all in a row (a single straight street): the line through them is buffered.
  let base: JtsGeometry = ring.length >= 4 ? toJts(hull) : toJts({ type: 'MultiPoint', coordinates });
  if (base.getArea() === 0 && coordinates.length >= 2) {
    base = toJts({ type: 'LineString', coordinates: ring.length >= 2 ? ring : coordinates });
  }
  // Few segments per quarter circle: the outline is approximate anyway and stays light for clients.
  const buffered = (base as JtsGeometry & { buffer(d: number, q: number): JtsGeometry }).buffer(points.cellDegrees, 2);
  const json = toGeoJson(buffered);
  return json.type === 'Polygon' || json.type === 'MultiPolygon' ? json : undefined;
}
