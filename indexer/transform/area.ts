/** Source feature → in-memory area record → AreaDoc (pure). */
import type { Geometry } from 'geojson';
import type { AreaDoc } from '../../core/elasticsearch/documents.js';
import { bboxOf, mergePolygonal, validatePolygonal } from '../geometry/checks.js';
import { normaliseGeometry } from '../geometry/repair.js';
import { representativePoint } from '../geometry/representativePoint.js';
import { sourceKey, stableId } from '../records/ids.js';
import { AREA_LEVEL_VALUE, type AreaLevelName } from '../base/levels.js';
import type { AreaSource, NamesTableSpec, PrimaryLanguageSpec } from '../manifest/manifestSources.js';
import { type Names, otherNames } from '../records/names.js';
import { type AreaRecord, emptyParents } from '../records/records.js';
import { type Outcome, reject } from '../base/rejectReasons.js';
import { nameTokens, normaliseText } from '../base/text.js';
import { type Properties, propertyText, readField } from './fields.js';

export function areaFromFeature(
  level: AreaLevelName,
  props: Properties,
  geometry: Geometry | null | undefined,
  fields: AreaSource['fields'],
): Outcome<AreaRecord> {
  const key = readField(props, fields.key);
  if (!key) return reject('missing_key', 'no value for the key field');
  const names = readNames(props, fields.names);
  const name =
    readField(props, fields.name) ||
    (names && (names[primaryLanguage(props, fields.primaryLanguage)] ?? Object.values(names)[0])) ||
    '';
  if (!name) return reject('missing_name', `area ${key} has no name`);
  const check = validatePolygonal(geometry);
  if (!check.ok) return reject('invalid_geometry', check.detail);
  const fixed = normaliseGeometry(check.geometry);
  if (!fixed.ok) return reject('invalid_geometry', fixed.detail);
  const final = fixed.geometry;
  return {
    ok: true,
    value: {
      level,
      key,
      id: stableId(level, key),
      sourceKey: sourceKey(level, key),
      name,
      ...(names && { names }),
      localIdentifier: readField(props, fields.localIdentifier),
      countryCode: readField(props, fields.countryCode).toUpperCase(),
      countryCode3: readField(props, fields.countryCode3).toUpperCase(),
      geometry: final,
      // From the final geometry, so the box matches what clients receive.
      bbox: bboxOf(final),
      centroid: representativePoint(final),
      parents: emptyParents(),
      parentId: '',
      repairs: fixed.repairs,
    },
  };
}

/** The mapped names that are not empty; undefined when none is mapped or found. */
function readNames(props: Properties, specs: AreaSource['fields']['names']): Names | undefined {
  if (!specs) return undefined;
  const names: Names = {};
  for (const [language, spec] of Object.entries(specs)) {
    const value = readField(props, spec);
    if (value) names[language] = value;
  }
  return Object.keys(names).length ? names : undefined;
}

function primaryLanguage(props: Properties, spec: PrimaryLanguageSpec | undefined): string {
  if (spec === undefined || typeof spec === 'string') return spec ?? '';
  return spec.map[propertyText(props, spec.property)] ?? '';
}

/**
 * The area with the names its row of a names table gives it (`namesTable`); a language the source names itself keeps
 * the source's name. An area the table has no row for is left as it is.
 */
export function withTableNames(
  record: AreaRecord,
  props: Properties,
  spec: NamesTableSpec,
  table: ReadonlyMap<string, Names>,
): AreaRecord {
  const joined = table.get(readField(props, spec.field));
  if (!joined || Object.keys(joined).length === 0) return record;
  return { ...record, names: { ...joined, ...record.names } };
}

/**
 * Two features with one source key are one area in two parts (Natural Earth gives Australia's
 * Ashmore and Cartier Islands their own feature with ISO code AUS): the first keeps its attributes,
 * the geometry becomes the union of parts.
 */
export function mergeAreas(first: AreaRecord, second: AreaRecord): AreaRecord {
  // Normalised again: two valid parts may overlap, and their union must be valid too.
  const fixed = normaliseGeometry(mergePolygonal(first.geometry, second.geometry));
  const geometry = fixed.ok ? fixed.geometry : first.geometry;
  return { ...first, geometry, bbox: bboxOf(geometry), centroid: representativePoint(geometry) };
}

export function toAreaDoc(r: AreaRecord): AreaDoc {
  const nameKey = normaliseText(r.name);
  const others = r.names ? otherNames(nameKey, Object.values(r.names), normaliseText) : [];
  return {
    id: r.id,
    level: AREA_LEVEL_VALUE[r.level],
    source_key: r.sourceKey,
    name: r.name,
    name_key: nameKey,
    name_tokens: nameTokens(r.name),
    ...(r.names && { names: r.names }),
    ...(others.length && {
      other_name_keys: others.map(normaliseText),
      other_name_tokens: [...new Set(others.flatMap(nameTokens))],
    }),
    local_identifier: r.localIdentifier,
    country_code: r.countryCode,
    country_code3: r.countryCode3,
    parent_id: r.parentId,
    country_id: r.parents.country_id,
    province_id: r.parents.province_id,
    municipality_id: r.parents.municipality_id,
    city_id: r.parents.city_id,
    centroid: r.centroid,
    bbox: r.bbox,
    geometry: r.geometry,
  };
}
