/**
 * One rule for the media type of every GeoJSON answer: `application/json` (what the contract documents and
 * what `Accept: *\/*` or no Accept gets), `application/geo+json` only when the client's Accept prefers it.
 */
import type { Context } from 'koa';

export const GEOJSON = 'application/geo+json';
export const JSON_TYPE = 'application/json';

export function geojsonMediaType(ctx: Context): string {
  // accepts() ranks by q-value, specificity, then order in Accept; a wildcard matches our first type, JSON.
  return ctx.accepts(JSON_TYPE, GEOJSON) === GEOJSON ? GEOJSON : JSON_TYPE;
}

/** Mapbox Vector Tiles (the boundary tiles). Not in compressible's list, though protobuf compresses well. */
export const MVT = 'application/vnd.mapbox-vector-tile';
