/**
 * Our places as Pelias' GeoJSON: the `geocoding` block, features with Pelias' properties (`gid`, `layer`,
 * `source`, `name`, `housenumber`, `street`, `postalcode`, `confidence`, `match_type`, `accuracy`, `country`,
 * `country_a`, `region`, `localadmin`, `locality`, `neighbourhood`, `label`) and `bbox`. Pure.
 */
import { z } from 'zod';
import { type Attribution, UNRECORDED_SOURCES } from '../../../indexes/attribution.js';
import { sourcesOfAll } from '../attribution.js';
import type { DialectPlace } from '../place.js';
import { PELIAS_LAYER_OF } from './peliasQuery.js';
import { countryOfCode } from '../../../../core/text/countries.js';

/** The `source` of every gid: our own records. */
export const PELIAS_SOURCE = 'geocoder';

/** `geocoder:address:<id>`: Pelias' global id of one of ours, and back. */
export const gidOf = (p: DialectPlace) => `${PELIAS_SOURCE}:${PELIAS_LAYER_OF[p.kind]}:${p.id}`;
export function idOfGid(gid: string): { layer: string; id: string } | undefined {
  const [source, layer, ...rest] = gid.split(':');
  return source === PELIAS_SOURCE && layer && rest.length ? { layer, id: rest.join(':') } : undefined;
}

/** "Mekelweg 8, Delft, Netherlands": the name, then the locality and country it lies in. */
export function peliasLabel(p: DialectPlace): string {
  const parts = [p.name, p.kind === 'city' ? '' : p.city || p.municipality, p.kind === 'country' ? '' : p.country];
  return parts.filter((v, i) => v && parts.indexOf(v) === i).join(', ');
}

export function peliasFeature(p: DialectPlace) {
  const area = p.kind !== 'address' && p.kind !== 'street' && p.kind !== 'postcode';
  const fields: Record<string, string> = {
    housenumber: p.housenumber,
    street: p.street,
    postalcode: p.postcode,
    country: p.country,
    country_code: p.countryCode,
    country_a: countryOfCode(p.countryCode)?.code3 ?? '',
    region: p.province,
    localadmin: p.municipality,
    locality: p.city,
    neighbourhood: p.suburb,
  };
  const [minLon, minLat, maxLon, maxLat] = p.bbox;
  const hasBox = minLon !== maxLon || minLat !== maxLat;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
    properties: {
      id: p.id,
      gid: gidOf(p),
      layer: PELIAS_LAYER_OF[p.kind],
      source: PELIAS_SOURCE,
      source_id: p.id,
      name: p.name,
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v)),
      confidence: p.confidence,
      match_type: p.confidence >= 0.8 ? 'exact' : 'fallback',
      accuracy: area || p.kind === 'street' ? 'centroid' : 'point',
      label: peliasLabel(p),
    },
    ...(hasBox ? { bbox: p.bbox } : {}),
  };
}

/** `attribution`: the credits of the answer's sources (src/indexes/attribution.ts), or where to read about them. */
function header(query: Record<string, unknown>, attribution: string, errors?: string[]) {
  return {
    version: '0.2',
    attribution,
    query,
    ...(errors ? { errors } : {}),
    engine: { name: 'geocoder', author: 'geocoder', version: '1.0' },
    timestamp: Date.now(),
  };
}

/** The collection, with the envelope of its features' boxes and points and the credits of their sources. */
export function peliasCollection(
  places: readonly DialectPlace[],
  query: Record<string, unknown>,
  attribution: Attribution,
) {
  const features = places.map(peliasFeature);
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of places) {
    box[0] = Math.min(box[0]!, p.bbox[0], p.lon);
    box[1] = Math.min(box[1]!, p.bbox[1], p.lat);
    box[2] = Math.max(box[2]!, p.bbox[2], p.lon);
    box[3] = Math.max(box[3]!, p.bbox[3], p.lat);
  }
  return {
    geocoding: header(query, attribution.text(sourcesOfAll(places))),
    type: 'FeatureCollection',
    features,
    ...(places.length ? { bbox: box } : {}),
  };
}

/** Pelias' error body: the collection, empty, with `geocoding.errors`. */
export const peliasError = (message: string) => ({
  geocoding: header({}, UNRECORDED_SOURCES, [message]),
  type: 'FeatureCollection',
  features: [],
});

export const PeliasError = z.object({
  geocoding: z.object({ errors: z.array(z.string()) }).loose(),
  type: z.literal('FeatureCollection'),
  features: z.array(z.never()),
});
export const PeliasCollection = z.object({
  geocoding: z.record(z.string(), z.unknown()),
  type: z.literal('FeatureCollection'),
  features: z.array(z.record(z.string(), z.unknown())),
  bbox: z.array(z.number()).length(4).optional(),
});
