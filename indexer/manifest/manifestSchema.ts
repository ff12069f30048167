/**
 * The dataset manifest's shape: the sources of each level (indexer/manifest/manifestSources.ts) and the rules that span a
 * source's fields or several sources, checked before any index exists.
 */
import { z } from 'zod';
import { type AreaLevelName, isAreaLevel, type LevelName, LEVELS } from '../base/levels.js';
import {
  type AddressSource,
  AddressSourceSchema,
  type AreaSource,
  AreaSourceSchema,
  BuildingSourceSchema,
  DerivedCitySourceSchema,
  type FileSource,
} from './manifestSources.js';
import { isOfficialFormat, OFFICIAL_LEVELS, STATUS_FORMATS, withOfficialFields } from './officialSources.js';

/** An area level's sources; an official format's (osm-pbf) get their fields filled in first. */
const areaList = (level: AreaLevelName) => z.array(z.preprocess(withOfficialFields(level), AreaSourceSchema));

export const ManifestSchema = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    levels: z.strictObject({
      countries: areaList('countries').optional(),
      provinces: areaList('provinces').optional(),
      municipalities: areaList('municipalities').optional(),
      cities: z
        .array(z.union([z.preprocess(withOfficialFields('cities'), AreaSourceSchema), DerivedCitySourceSchema]))
        .optional(),
      suburbs: areaList('suburbs').optional(),
      buildings: z.array(BuildingSourceSchema).optional(),
      addresses: z.array(z.preprocess(withOfficialFields('addresses'), AddressSourceSchema)).optional(),
    }),
  })
  .superRefine((manifest, ctx) => {
    const levels = manifest.levels;
    if (!LEVELS.some((l) => (levels[l]?.length ?? 0) > 0)) {
      ctx.addIssue({ code: 'custom', path: ['levels'], message: 'the manifest names no source at all' });
    }
    for (const level of LEVELS) {
      (levels[level] ?? []).forEach((source, i) => {
        const path = ['levels', level, i];
        if (source.format === 'derived') {
          if (!(levels.addresses?.length ?? 0)) {
            ctx.addIssue({ code: 'custom', path, message: 'derived cities need an addresses source' });
          }
          return;
        }
        const issue = (at: (string | number)[], message: string) =>
          ctx.addIssue({ code: 'custom', path: [...path, ...at], message });
        checkFormat(level, source, issue);
        checkParent(level, source, issue);
        checkFields(level, source, issue);
      });
    }
  });

/** Reports one problem of a source, at a path below the source's own. */
type Issue = (at: (string | number)[], message: string) => void;

/** What a source's format allows: an official format's levels, statuses and CSV options; the OSM options. */
function checkFormat(level: LevelName, source: FileSource, issue: Issue): void {
  if (isOfficialFormat(source.format)) {
    if (!OFFICIAL_LEVELS[source.format].includes(level)) {
      issue(['format'], `${source.format} feeds ${OFFICIAL_LEVELS[source.format].join(' and ')} only`);
    }
    if (source.statuses && !STATUS_FORMATS.includes(source.format)) {
      issue(['statuses'], `${source.format} has no statuses`);
    }
    const binary = source.format === 'bag-gpkg' || source.format === 'osm-pbf';
    const csvKeys = binary ? ['delimiter', 'encoding', 'multilineFields'] : ['delimiter'];
    for (const key of csvKeys as ('delimiter' | 'encoding' | 'multilineFields')[]) {
      if (source[key] !== undefined) issue([key], `not for ${source.format} sources`);
    }
  } else if (source.statuses) {
    issue(['statuses'], 'only for official formats');
  }
  if (source.osm && source.format !== 'osm-pbf') issue(['osm'], 'only for osm-pbf sources');
  if (source.osm?.adminLevels && !isAreaLevel(level)) issue(['osm', 'adminLevels'], 'only for area levels');
}

/** A source's parent: none for countries; by code, an area level above the source's. */
function checkParent(level: LevelName, source: FileSource, issue: Issue): void {
  if (level === 'countries' && source.parent) issue(['parent'], 'countries have no parent');
  const parent = source.parent;
  if (parent?.by !== 'code') return;
  const parentLevel = parent.level ?? LEVELS[LEVELS.indexOf(level) - 1];
  if (!parentLevel || LEVELS.indexOf(parentLevel) >= LEVELS.indexOf(level)) {
    issue(['parent', 'level'], `parent level must be above ${level}`);
  } else if (!isAreaLevel(parentLevel)) {
    issue(['parent'], 'code parents must be areas');
  }
}

/** The fields a level needs (addresses: both coordinates or neither; areas: a name), and CSV where it can serve. */
function checkFields(level: LevelName, source: FileSource, issue: Issue): void {
  if (level === 'addresses') {
    const f = source.fields as AddressSource['fields'];
    if ((f.lon === undefined) !== (f.lat === undefined)) issue(['fields'], 'map both lon and lat, or neither');
    if (f.lon === undefined && (source.format === 'csv' || source.format === 'best-csv')) {
      issue(['fields'], 'CSV addresses need lon and lat');
    }
  }
  if (isAreaLevel(level)) {
    const f = source.fields as AreaSource['fields'];
    if (f.name === undefined && !Object.keys(f.names ?? {}).length) issue(['fields'], 'map name, or names');
  }
  if (source.multilineFields !== undefined && source.format !== 'csv') {
    issue(['multilineFields'], 'only for csv sources');
  }
  if (level !== 'addresses' && source.format === 'csv') {
    issue(['format'], `${level} need polygons: use geojson or geojsonseq`);
  }
}

export type Manifest = z.infer<typeof ManifestSchema>;
