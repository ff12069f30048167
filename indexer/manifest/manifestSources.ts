/**
 * How the manifest describes one source: its file and format, which property holds each field, which records it
 * reads and how a record finds its parent (the cross-source rules: indexer/manifest/manifestSchema.ts).
 */
import { LANGUAGES } from '../base/text.js';
import { z } from 'zod';
import { AREA_LEVELS } from '../base/levels.js';
import { SOURCE_ID_NAMES } from '../../core/elasticsearch/documents.js';
import { encodingKnown } from '../base/encodingNames.js';

/**
 * Where a value comes from: a property name (shorthand), a constant, a property with a prefix
 * (`WK0503` + wijk ref), several properties joined (`osm_type/osm_id`), or the first non-empty of a list.
 * `padStart` restores a fixed-width numeric code's leading zeros (OSM's `ref:bag` drops the BAG id's
 * leading 0): only digit strings are padded, and only where the manifest says so.
 */
export type FieldSpec =
  | string
  | { value: string }
  | { property: string; prefix?: string | undefined; padStart?: number | undefined }
  | { join: string[]; separator?: string | undefined }
  | { first: FieldSpec[] };

export const FieldSpecSchema: z.ZodType<FieldSpec> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z.strictObject({ value: z.string() }),
    z.strictObject({
      property: z.string().min(1),
      prefix: z.string().optional(),
      padStart: z.number().int().min(1).max(64).optional(),
    }),
    z.strictObject({ join: z.array(z.string().min(1)).min(1), separator: z.string().optional() }),
    z.strictObject({ first: z.array(FieldSpecSchema).min(1) }),
  ]),
);

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** Every filter of a source must hold for a record to be read; values compare as strings. */
export const FilterSchema = z.union([
  z.strictObject({ property: z.string().min(1), equals: Scalar }),
  z.strictObject({ property: z.string().min(1), in: z.array(Scalar).min(1) }),
  z.strictObject({ property: z.string().min(1), notIn: z.array(Scalar).min(1) }),
  z.strictObject({ property: z.string().min(1), exists: z.boolean() }),
]);
export type Filter = z.infer<typeof FilterSchema>;

/** A file's text encoding (default UTF-8, checked while reading): any name iconv-lite knows. */
const EncodingSchema = z.string().refine(encodingKnown, {
  message: 'unknown encoding (try "utf-8", "windows-1252", "latin1" or "iso-8859-15")',
});

/** An ISO 639-1 (or -2) language code, lower case: the keys of `names`. */
const LANGUAGE_MESSAGE = `a language of core/text/languages.ts (${LANGUAGES.join(', ')}): add a new one there first`;

/** A language names are held in: one of core/text/languages.ts (a name in any other could be indexed but never shown). */
export const LanguageCodeSchema = z.enum(LANGUAGES, { error: () => LANGUAGE_MESSAGE });

/** Something per language (`{ "nl": …, "fr": … }`), its keys languages of core/text/languages.ts. */
const byLanguage = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).superRefine((entries, ctx) => {
    for (const key of Object.keys(entries)) {
      if (!(LANGUAGES as readonly string[]).includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: LANGUAGE_MESSAGE });
      }
    }
  });

/** A two-column join table (`key` column -> `value` column), relative to the manifest. */
const LookupTableSchema = z.strictObject({
  file: z.string().min(1),
  key: z.string().min(1),
  value: z.string().min(1),
  delimiter: z.string().length(1).optional(),
  encoding: EncodingSchema.optional(),
});

/**
 * The language of an area's own name: a constant (`"nl"`) or a coded property translated by a table
 * (Statbel's language regime `lang_code`: `D` -> `nl`, `F` -> `fr`, `G` -> `de`).
 */
const PrimaryLanguageSchema = z.union([
  LanguageCodeSchema,
  z.strictObject({ property: z.string().min(1), map: z.record(z.string(), LanguageCodeSchema) }),
]);
export type PrimaryLanguageSpec = z.infer<typeof PrimaryLanguageSchema>;

const ParentFieldSchema = z.enum(['local_identifier', 'country_code', 'country_code3', 'source_key', 'name']);

export const ParentSpecSchema = z.discriminatedUnion('by', [
  z.strictObject({
    by: z.literal('spatial'),
  }),
  z.strictObject({
    by: z.literal('code'),
    /** Parent level; defaults to the level directly above. */
    level: z.enum(AREA_LEVELS).optional(),
    /** The record's own value naming its parent (after `lookup`, if any). */
    field: FieldSpecSchema,
    /** Which attribute of the parent record that value is compared with. */
    parentField: ParentFieldSchema.default('local_identifier'),
    /** Translate the value through a two-column join table first (e.g. gemeentecode → provinciecode). */
    lookup: LookupTableSchema.optional(),
  }),
]);
export type ParentSpec = z.infer<typeof ParentSpecSchema>;

const AreaFieldsSchema = z.strictObject({
  key: FieldSpecSchema,
  /** Optional when `names` is mapped: then the name in `primaryLanguage`, else the first name found. */
  name: FieldSpecSchema.optional(),
  /** The area's name per language (`{ "fr": "name_fr", "nl": "name_nl" }`); every one is searchable. */
  names: byLanguage(FieldSpecSchema).optional(),
  primaryLanguage: PrimaryLanguageSchema.optional(),
  localIdentifier: FieldSpecSchema.optional(),
  countryCode: FieldSpecSchema.optional(),
  countryCode3: FieldSpecSchema.optional(),
});

const BuildingFieldsSchema = z.strictObject({
  key: FieldSpecSchema,
  localIdentifier: FieldSpecSchema.optional(),
  buildingType: FieldSpecSchema.optional(),
});

const AddressFieldsSchema = z.strictObject({
  /** Traced into rejects only; an address's id comes from its normalised full address. */
  sourceId: FieldSpecSchema.optional(),
  /** The source's own ids kept on the document (`source_ids`, shown by GET /addresses/{id}): name -> field. */
  sourceIds: z.partialRecord(z.enum(SOURCE_ID_NAMES), FieldSpecSchema).optional(),
  street: FieldSpecSchema,
  /**
   * The street's name per language in the record itself (BeST: `streetname_nl/fr/de`), with `streetLanguage` the
   * language of `street`: every name is searchable and shown by `lang` (as a `streetNames` table does).
   */
  streetNamesByLanguage: byLanguage(FieldSpecSchema).optional(),
  streetLanguage: FieldSpecSchema.optional(),
  /** With letter/addition mapped: the bare number. Without: the raw form (`139A-1`), parsed. */
  number: FieldSpecSchema,
  letter: FieldSpecSchema.optional(),
  addition: FieldSpecSchema.optional(),
  postcode: FieldSpecSchema.optional(),
  city: FieldSpecSchema.optional(),
  /** For CSV; GeoJSON addresses take their Point geometry when these are absent. */
  lon: FieldSpecSchema.optional(),
  lat: FieldSpecSchema.optional(),
});

/**
 * `geojson`, `geojsonseq` and `csv` are read with the manifest's `fields`; the official formats
 * (indexer/manifest/officialSources.ts) know their own layout and fill `fields` themselves.
 */
export const SOURCE_FORMATS = [
  'geojson',
  'geojsonseq',
  'csv',
  'bag-gpkg',
  'best-csv',
  'openaddresses',
  'osm-pbf',
] as const;

/**
 * Whom a source's data is from, as answers name it (core/elasticsearch/attribution.ts): the credit it asks for and the
 * countries its data lies in (none: any, a world-wide file). An answer names the sources of the levels it shows in
 * its place's country.
 */
export const AttributionSchema = z.strictObject({
  text: z.string().trim().min(1).max(300),
  countries: z
    .array(z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, upper case'))
    .min(1)
    .optional(),
});
export type AttributionSpec = z.infer<typeof AttributionSchema>;

const FileSourceBase = {
  file: z.string().min(1),
  format: z.enum(SOURCE_FORMATS),
  /** Official formats with statuses (bag-gpkg, best-csv): the statuses to read instead of the format's defaults. */
  statuses: z.strictObject({ keep: z.array(z.string().min(1)).min(1) }).optional(),
  /** CSV only. */
  delimiter: z.string().length(1).optional(),
  /** Default UTF-8, checked: invalid bytes stop the run naming the line and byte. */
  encoding: EncodingSchema.optional(),
  /**
   * CSV only: quoted fields may span lines. Without it a record spanning several lines is rejected and counted
   * once per line it covers, since it is nearly always a stray quote that swallowed the lines after it.
   */
  multilineFields: z.boolean().optional(),
  filter: z.array(FilterSchema).default([]),
  /** osm-pbf only (docs/openstreetmap.md): the extract's country and the admin_levels this level takes. */
  osm: z
    .strictObject({
      /** ISO 3166-1 alpha-2: its admin_level table; boundaries outside its own admin_level 2 boundary are skipped. */
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code')
        .optional(),
      /** The admin_levels this level takes instead of the country's defaults (indexer/sources/osm/adminLevels.ts). */
      adminLevels: z.array(z.number().int().min(1).max(12)).min(1).optional(),
    })
    .optional(),
  parent: ParentSpecSchema.optional(),
  /** Free text for humans (licence, provenance); ignored by the indexer. */
  note: z.string().optional(),
  /** What answers showing this source's data credit (kept with the generation). */
  attribution: AttributionSchema.optional(),
};

/**
 * An area's names per language joined from a table (CSV), for a source that lacks them (Natural Earth's admin-1 has
 * no French or German names): the row whose `key` column equals the area's own `field` gives, per language, the
 * column `names` maps it to. A language the source names itself (`fields.names`) keeps the source's name; the name
 * shown without a language (`fields.name`) stays the source's.
 */
export const NamesTableSchema = z.strictObject({
  file: z.string().min(1),
  delimiter: z.string().length(1).optional(),
  encoding: EncodingSchema.optional(),
  key: z.string().min(1),
  field: FieldSpecSchema,
  names: byLanguage(z.string().min(1)),
});
export type NamesTableSpec = z.infer<typeof NamesTableSchema>;

export const AreaSourceSchema = z.strictObject({
  ...FileSourceBase,
  fields: AreaFieldsSchema,
  namesTable: NamesTableSchema.optional(),
});
export const BuildingSourceSchema = z.strictObject({ ...FileSourceBase, fields: BuildingFieldsSchema });
/**
 * Street names in other languages, joined to each address from a table (CSV) by its street name as the
 * addresses spell it (`street`, compared by streetKey) within a scope (`within`: e.g. the municipality's NIS code,
 * reached from the address's city name through `lookup`; compared normalised). `names` maps a language to the
 * column with the street's name in it, `alternatives` to a column of further spellings (`separator`-separated):
 * searchable, never shown.
 */
export const StreetNamesSchema = z.strictObject({
  file: z.string().min(1),
  delimiter: z.string().length(1).optional(),
  encoding: EncodingSchema.optional(),
  /** The language the addresses' own street names are in. */
  language: LanguageCodeSchema,
  street: z.string().min(1),
  within: z
    .strictObject({ column: z.string().min(1), field: FieldSpecSchema, lookup: LookupTableSchema.optional() })
    .optional(),
  names: byLanguage(z.string().min(1)),
  alternatives: byLanguage(z.string().min(1)).optional(),
  separator: z.string().min(1).default(';'),
  /** The names' own credit (an OpenStreetMap table: ODbL), in the countries of the addresses' source. */
  attribution: AttributionSchema.shape.text.optional(),
});
export type StreetNamesSpec = z.infer<typeof StreetNamesSchema>;

export const AddressSourceSchema = z.strictObject({
  ...FileSourceBase,
  fields: AddressFieldsSchema,
  streetNames: StreetNamesSchema.optional(),
});

/**
 * Cities derived from the addresses' city names (for address files without city polygons): one city
 * per normalised name within its municipality (or province when there is none).
 */
export const DerivedCitySourceSchema = z.strictObject({
  format: z.literal('derived'),
  from: z.literal('addresses'),
  note: z.string().optional(),
});
// Derived cities are credited as the addresses they come from (indexer/manifest/attribution.ts).

export type AreaSource = z.infer<typeof AreaSourceSchema>;
export type BuildingSource = z.infer<typeof BuildingSourceSchema>;
export type AddressSource = z.infer<typeof AddressSourceSchema>;
export type FileSource = AreaSource | BuildingSource | AddressSource;
