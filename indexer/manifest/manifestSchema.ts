/**
 * The dataset manifest's shape: the sources of each level (indexer/manifest/manifestSources.ts) and the rules that span a
 * source's fields or several sources, checked before any index exists.
 */
import { z } from 'zod';
import { type AreaLevelName, isAreaLevel, LEVELS } from '../base/levels.js';
import {
  type AddressSource,
  AddressSourceSchema,
  type AreaSource,
  AreaSourceSchema,
  BuildingSourceSchema,
  DerivedCitySourceSchema,
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
        if (isOfficialFormat(source.format)) {
          if (!OFFICIAL_LEVELS[source.format].includes(level)) {
            const where = OFFICIAL_LEVELS[source.format].join(' and ');
            ctx.addIssue({
              code: 'custom',
              path: [...path, 'format'],
              message: `${source.format} feeds ${where} only`,
            });
          }
          if (source.statuses && !STATUS_FORMATS.includes(source.format)) {
            ctx.addIssue({ code: 'custom', path: [...path, 'statuses'], message: `${source.format} has no statuses` });
          }
          const binary = source.format === 'bag-gpkg' || source.format === 'osm-pbf';
          const csvKeys = binary ? ['delimiter', 'encoding', 'multilineFields'] : ['delimiter'];
          for (const key of csvKeys as ('delimiter' | 'encoding' | 'multilineFields')[]) {
            if (source[key] !== undefined) {
              ctx.addIssue({ code: 'custom', path: [...path, key], message: `not for ${source.format} sources` });
            }
          }
        } else if (source.statuses) {
          ctx.addIssue({ code: 'custom', path: [...path, 'statuses'], message: 'only for official formats' });
        }
        if (source.osm && source.format !== 'osm-pbf') {
          ctx.addIssue({ code: 'custom', path: [...path, 'osm'], message: 'only for osm-pbf sources' });
        }
        if (source.osm?.adminLevels && !isAreaLevel(level)) {
          ctx.addIssue({ code: 'custom', path: [...path, 'osm', 'adminLevels'], message: 'only for area levels' });
        }
        if (level === 'countries' && source.parent) {
          ctx.addIssue({ code: 'custom', path: [...path, 'parent'], message: 'countries have no parent' });
        }
        const parent = source.parent;
        if (parent?.by === 'code') {
          const parentLevel = parent.level ?? LEVELS[LEVELS.indexOf(level) - 1];
          if (!parentLevel || LEVELS.indexOf(parentLevel) >= LEVELS.indexOf(level)) {
            ctx.addIssue({
              code: 'custom',
              path: [...path, 'parent', 'level'],
              message: `parent level must be above ${level}`,
            });
          } else if (!isAreaLevel(parentLevel)) {
            ctx.addIssue({ code: 'custom', path: [...path, 'parent'], message: 'code parents must be areas' });
          }
        }
        if (level === 'addresses') {
          const f = source.fields as AddressSource['fields'];
          if ((f.lon === undefined) !== (f.lat === undefined)) {
            ctx.addIssue({ code: 'custom', path: [...path, 'fields'], message: 'map both lon and lat, or neither' });
          }
          if (f.lon === undefined && (source.format === 'csv' || source.format === 'best-csv')) {
            ctx.addIssue({ code: 'custom', path: [...path, 'fields'], message: 'CSV addresses need lon and lat' });
          }
        }
        if (isAreaLevel(level)) {
          const f = source.fields as AreaSource['fields'];
          if (f.name === undefined && !Object.keys(f.names ?? {}).length) {
            ctx.addIssue({ code: 'custom', path: [...path, 'fields'], message: 'map name, or names' });
          }
        }
        if (source.multilineFields !== undefined && source.format !== 'csv') {
          ctx.addIssue({ code: 'custom', path: [...path, 'multilineFields'], message: 'only for csv sources' });
        }
        if (level !== 'addresses' && source.format === 'csv') {
          ctx.addIssue({
            code: 'custom',
            path: [...path, 'format'],
            message: `${level} need polygons: use geojson or geojsonseq`,
          });
        }
      });
    }
  });

export type Manifest = z.infer<typeof ManifestSchema>;
