/** Source feature → in-memory building record → BuildingDoc (pure). */
import type { Geometry } from 'geojson';
import type { BuildingDoc } from '../../core/elasticsearch/documents.js';
import { bboxOf, validatePolygonal } from '../geometry/checks.js';
import { normaliseGeometry } from '../geometry/repair.js';
import { representativePoint } from '../geometry/representativePoint.js';
import { sourceKey, stableId } from '../records/ids.js';
import type { BuildingSource } from '../manifest/manifestSources.js';
import type { BuildingRecord, Parents } from '../records/records.js';
import { type Outcome, reject } from '../base/rejectReasons.js';
import { type Properties, readField } from './fields.js';

export function buildingFromFeature(
  props: Properties,
  geometry: Geometry | null | undefined,
  fields: BuildingSource['fields'],
): Outcome<BuildingRecord> {
  const key = readField(props, fields.key);
  if (!key) return reject('missing_key', 'no value for the key field');
  const check = validatePolygonal(geometry);
  if (!check.ok) return reject('invalid_geometry', check.detail);
  const fixed = normaliseGeometry(check.geometry);
  if (!fixed.ok) return reject('invalid_geometry', fixed.detail);
  const final = fixed.geometry;
  const centroid = representativePoint(final);
  return {
    ok: true,
    value: {
      id: stableId('buildings', key),
      sourceKey: sourceKey('buildings', key),
      localIdentifier: readField(props, fields.localIdentifier),
      buildingType: readField(props, fields.buildingType),
      geometry: final,
      bbox: bboxOf(final),
      centroid,
      repairs: fixed.repairs,
      // The representative point is inside the footprint, so it also serves the parent lookup.
      anchor: [centroid.lon, centroid.lat],
    },
  };
}

export function toBuildingDoc(b: BuildingRecord, parents: Parents): BuildingDoc {
  return {
    id: b.id,
    source_key: b.sourceKey,
    local_identifier: b.localIdentifier,
    building_type: b.buildingType,
    country_id: parents.country_id,
    province_id: parents.province_id,
    municipality_id: parents.municipality_id,
    city_id: parents.city_id,
    suburb_id: parents.suburb_id,
    centroid: b.centroid,
    bbox: b.bbox,
    geometry: b.geometry,
  };
}
