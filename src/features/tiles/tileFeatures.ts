/**
 * What the boundary tiles carry of a document (pure): per area its shape and its label point (the representative
 * point inside it that `geometry=centroid` answers), with the same properties; per building its footprint.
 */
import type { Feature, Geometry } from 'geojson';
import type { AreaDoc, BuildingDoc } from '../../../core/elasticsearch/documents.js';
import { pointOf } from '../../geojson/features.js';

/** The languages an area's names are carried in (`name:nl`, ...), where it has a name in them. */
export const NAME_LANGUAGES = ['nl', 'fr', 'de'] as const;

export type TileProperties = Record<string, string>;

export function areaProperties(doc: AreaDoc): TileProperties {
  const properties: TileProperties = {
    id: doc.id,
    name: doc.name,
    local_identifier: doc.local_identifier,
    level: doc.level,
  };
  for (const language of NAME_LANGUAGES) {
    const name = doc.names?.[language];
    if (name) properties[`name:${language}`] = name;
  }
  return properties;
}

/**
 * The shape and the label point of an area. No feature `id`: MVT ids are integers and ours are strings, so the id
 * is a property (a MapLibre source takes it with `promoteId: 'id'`).
 */
export function areaTileFeatures(doc: AreaDoc): Feature<Geometry, TileProperties>[] {
  const properties = areaProperties(doc);
  return [
    { type: 'Feature', geometry: doc.geometry, properties },
    { type: 'Feature', geometry: pointOf(doc.centroid), properties },
  ];
}

export function buildingTileFeature(doc: BuildingDoc): Feature<Geometry, TileProperties> {
  return {
    type: 'Feature',
    geometry: doc.geometry,
    properties: { id: doc.id, local_identifier: doc.local_identifier, level: 'building' },
  };
}
