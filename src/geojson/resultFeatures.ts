/**
 * Result lists as GeoJSON (`format=geojson` on /search, /autocomplete and /reverse): one Point feature per
 * result at its `longitude`/`latitude`, `properties` exactly the JSON record (same fields, same language), the
 * record's `bbox` as the feature's, and the collection's `bbox` over every feature. Pure: the endpoints pass the
 * records they would answer as JSON through it, so the two formats cannot drift apart.
 */
import type { BBox, Feature, FeatureCollection, Point } from 'geojson';

/** What every result record carries: a point; `id` and `bbox` where it has them. */
export interface LocatedRecord {
  longitude: number;
  latitude: number;
  id?: unknown;
  bbox?: unknown;
}

const isBox = (value: unknown): value is BBox =>
  Array.isArray(value) && value.length === 4 && value.every((v) => typeof v === 'number' && Number.isFinite(v));

export function resultFeature<R extends LocatedRecord>(record: R): Feature<Point, R> {
  return {
    type: 'Feature',
    // A street or postcode has an id too; "" (an address without one) is no id.
    ...(typeof record.id === 'string' && record.id !== '' ? { id: record.id } : {}),
    geometry: { type: 'Point', coordinates: [record.longitude, record.latitude] },
    ...(isBox(record.bbox) ? { bbox: [...record.bbox] } : {}),
    properties: record,
  };
}

/** The envelope of the features' boxes and points; none for no features (RFC 7946 makes it optional). */
export function envelopeOf(features: readonly Feature<Point>[]): BBox | undefined {
  if (features.length === 0) return undefined;
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const feature of features) {
    const [lon, lat] = feature.geometry.coordinates as [number, number];
    const [minLon, minLat, maxLon, maxLat] = feature.bbox ?? [lon, lat, lon, lat];
    box[0] = Math.min(box[0], minLon, lon);
    box[1] = Math.min(box[1], minLat, lat);
    box[2] = Math.max(box[2], maxLon, lon);
    box[3] = Math.max(box[3], maxLat, lat);
  }
  return box;
}

export function resultsAsFeatures<R extends LocatedRecord>(
  records: readonly R[],
): FeatureCollection<Point, R> & { bbox?: BBox } {
  const features = records.map(resultFeature);
  const bbox = envelopeOf(features);
  return { type: 'FeatureCollection', ...(bbox ? { bbox } : {}), features };
}
