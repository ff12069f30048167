/**
 * GeoJSON shaping: documents in, RFC 7946 features out. Pure, so the shapes are unit-tested without a cluster.
 */
import type { Feature, Geometry, Point } from 'geojson';
import type { AreaDoc, BuildingDoc, GeoPoint } from '../../core/elasticsearch/documents.js';
import { simplifyShape } from './simplify.js';

export type GeometryMode = 'shape' | 'centroid';

export function pointOf(location: GeoPoint): Point {
  return { type: 'Point', coordinates: [location.lon, location.lat] };
}

export function areaProperties(doc: AreaDoc): Record<string, unknown> {
  return {
    id: doc.id,
    level: doc.level,
    name: doc.name,
    local_identifier: doc.local_identifier,
    country_code: doc.country_code,
    country_id: doc.country_id,
    province_id: doc.province_id,
    municipality_id: doc.municipality_id,
    city_id: doc.city_id,
    parent_id: doc.parent_id,
    centroid: [doc.centroid.lon, doc.centroid.lat],
    bbox: [doc.bbox.min_lon, doc.bbox.min_lat, doc.bbox.max_lon, doc.bbox.max_lat],
  };
}

/** `simplifyMetres` applies to shapes only (the query schemas refuse it with centroids). */
export function areaFeature(doc: AreaDoc, mode: GeometryMode, simplifyMetres?: number): Feature<Geometry> {
  let geometry = mode === 'centroid' ? pointOf(doc.centroid) : doc.geometry;
  if (mode === 'shape' && simplifyMetres) geometry = simplifyShape(geometry, simplifyMetres, doc.centroid.lat);
  return {
    type: 'Feature',
    id: doc.id,
    geometry,
    properties: areaProperties(doc),
  };
}

export function buildingFeature(doc: BuildingDoc, mode: GeometryMode): Feature<Geometry> {
  return {
    type: 'Feature',
    id: doc.id,
    geometry: mode === 'centroid' ? pointOf(doc.centroid) : doc.geometry,
    properties: {
      id: doc.id,
      local_identifier: doc.local_identifier,
      building_type: doc.building_type,
      suburb_id: doc.suburb_id,
      city_id: doc.city_id,
      municipality_id: doc.municipality_id,
      centroid: [doc.centroid.lon, doc.centroid.lat],
    },
  };
}

export function featureCollection(features: Feature[]) {
  return { type: 'FeatureCollection' as const, features };
}
