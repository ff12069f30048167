/**
 * The in-memory records the indexer builds from source features before they become documents, and the
 * parent ids they are joined to. Kept apart from the transforms and the hierarchy so both can use them.
 */
import type { BoundingBox, GeoPoint, ParentIds } from '../../core/elasticsearch/documents.js';
import type { PolygonGeometry } from '../geometry/checks.js';
import type { GeometryRepairs } from '../geometry/repair.js';
import type { AreaLevelName } from '../base/levels.js';
import type { Names } from './names.js';

export interface AreaRecord {
  level: AreaLevelName;
  key: string;
  id: string;
  sourceKey: string;
  name: string;
  /** The name per language where the source has several (`names` in the manifest). */
  names?: Names;
  localIdentifier: string;
  countryCode: string;
  countryCode3: string;
  geometry: PolygonGeometry;
  bbox: BoundingBox;
  /** Representative point: inside the geometry (geometry/representativePoint.ts). */
  centroid: GeoPoint;
  parents: ParentIds;
  parentId: string;
  /** What the geometry needed at index time (counted in the summary, not stored). */
  repairs?: GeometryRepairs;
}

export interface BuildingRecord {
  id: string;
  sourceKey: string;
  localIdentifier: string;
  buildingType: string;
  geometry: PolygonGeometry;
  bbox: BoundingBox;
  centroid: GeoPoint;
  repairs?: GeometryRepairs;
  /** Inside the footprint even for L- or U-shaped buildings: what the parent lookup uses. */
  anchor: [number, number];
}

export interface Parents extends ParentIds {
  suburb_id: string;
  building_id: string;
}

export function emptyParents(): ParentIds {
  return { country_id: '', province_id: '', municipality_id: '', city_id: '' };
}

export function emptyAllParents(): Parents {
  return { ...emptyParents(), suburb_id: '', building_id: '' };
}
