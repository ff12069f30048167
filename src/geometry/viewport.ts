/**
 * The `bbox` viewport filter: parsing `minLon,minLat,maxLon,maxLat` and the Elasticsearch clause that keeps
 * the documents whose stored envelope (`bbox.min_lon` …, written by the indexer) intersects it. Pure.
 */
import type { estypes } from '@elastic/elasticsearch';

export interface Viewport {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** Whether a point lies in the viewport (edges included); every point does when there is none. */
export function insideViewport(v: Viewport | undefined, lon: number, lat: number): boolean {
  return !v || (lon >= v.minLon && lon <= v.maxLon && lat >= v.minLat && lat <= v.maxLat);
}

const NUMBER = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/;

/** A viewport, or the reason the text is not one. A box across the antimeridian (minLon > maxLon) is refused. */
export function parseViewport(text: string): Viewport | { error: string } {
  const parts = text.split(',');
  if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p))) {
    return { error: 'bbox is four comma-separated numbers: minLon,minLat,maxLon,maxLat' };
  }
  const [minLon, minLat, maxLon, maxLat] = parts.map(Number) as [number, number, number, number];
  if ([minLon, maxLon].some((lon) => lon < -180 || lon > 180)) return { error: 'bbox longitudes lie in -180..180' };
  if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) return { error: 'bbox latitudes lie in -90..90' };
  if (minLon > maxLon || minLat > maxLat) return { error: 'bbox minimum exceeds its maximum' };
  return { minLon, minLat, maxLon, maxLat };
}

/**
 * Two boxes intersect when neither lies wholly to one side of the other: four range filters on the stored
 * envelope, answered from doc values without touching the geometry. Touching edges count as intersecting.
 */
export function viewportClause(v: Viewport): estypes.QueryDslQueryContainer[] {
  return [
    { range: { 'bbox.min_lon': { lte: v.maxLon } } },
    { range: { 'bbox.max_lon': { gte: v.minLon } } },
    { range: { 'bbox.min_lat': { lte: v.maxLat } } },
    { range: { 'bbox.max_lat': { gte: v.minLat } } },
  ];
}
