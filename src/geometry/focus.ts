/**
 * The focus point (`lat` and `lon` given together): read once from the request into a value that is passed on
 * whole, so no later step splits it into coordinates and rebuilds it.
 */
import type { GeoPoint } from '../../core/elasticsearch/documents.js';

export type Focus = GeoPoint;

/** The focus when both coordinates were given, else none (the schemas reject one without the other). */
export function focusOf(input: { lat?: number | undefined; lon?: number | undefined }): Focus | undefined {
  return input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon } : undefined;
}
