/**
 * `npm run index -- validate --manifest M`: everything a run checks of its input, without Elasticsearch. The
 * manifest, the files and their headers (preflight.ts), then a full read of every file through the run's own
 * readers, item classification and record transforms: per file, lines and records read, rejects by reason with a
 * few samples, lines swallowed by multi-line records, the encoding, and how many records miss their lookup table.
 * A data team runs it before a long load; exit 0 when a run would not fail on its input, else 1.
 */
import { isAreaLevel, LEVELS, type LevelName } from '../base/levels.js';
import { loadManifest, ManifestError } from '../manifest/manifest.js';
import type { AddressSource, AreaSource, BuildingSource, FileSource } from '../manifest/manifestSources.js';
import { sourceProblems } from './preflight.js';
import type { Outcome, RejectReason } from '../base/rejectReasons.js';
import { readCsvTable } from '../sources/csv.js';
import { readOsmFeatures } from '../sources/osm/readOsmFeatures.js';
import { type ReadStats, readSource, type SourceItem, type StatusCounts } from '../sources/index.js';
import { classifyItem, rowOf } from '../transform/sourceItems.js';
import { addressFromRecord } from '../transform/address.js';
import { areaFromFeature } from '../transform/area.js';
import { buildingFromFeature } from '../transform/building.js';
import { readField } from '../transform/fields.js';

const SAMPLES = 3;

export interface RejectSamples {
  count: number;
  /** `table` and `fid` for a GeoPackage row. */
  samples: { line: number; detail: string; table?: string; fid?: number }[];
}

export interface SourceReport {
  file: string;
  format: FileSource['format'];
  encoding: string;
  /** Physical lines (CSV, GeoJSONSeq). */
  lines?: number;
  read: number;
  skipped: number;
  rejected: number;
  swallowedLines: number;
  rejects: Partial<Record<RejectReason, RejectSamples>>;
  /** Records whose code is not in the source's lookup table (`parent.lookup`). */
  lookupMisses?: { count: number; samples: string[] };
  /** The file could not be read to its end: what stopped it. */
  error?: string;
  /** Formats that filter by status (BAG, BeST): records per status, kept and skipped. */
  statuses?: StatusCounts;
  /**
   * An osm-pbf address source: its named street ways and place nodes read (readOsmFeatures.ts). Which join the
   * addresses' streets, make streets of their own or are skipped needs the boundaries: the run's summary says.
   */
  osm?: { streetWays: number; placeNodes: number };
}

export interface ValidationReport {
  ok: boolean;
  manifest: string;
  levels: Partial<Record<LevelName, SourceReport[]>>;
  problems: string[];
}

/** The record transform a run applies to an item of `level` (pure; parents are not resolved here). */
function transformOutcome(level: LevelName, source: FileSource, item: SourceItem): Outcome<unknown> {
  const geometry = item.geometry;
  if (level === 'addresses') return addressFromRecord(item.props, geometry, (source as AddressSource).fields);
  if (level === 'buildings') return buildingFromFeature(item.props, geometry, (source as BuildingSource).fields);
  if (isAreaLevel(level)) return areaFromFeature(level, item.props, geometry, (source as AreaSource).fields);
  throw new Error(`no transform for ${level as string}`);
}

async function lookupOf(source: FileSource): Promise<Map<string, string> | undefined> {
  const lookup = source.parent?.by === 'code' ? source.parent.lookup : undefined;
  if (!lookup) return undefined;
  const table = new Map<string, string>();
  for (const row of await readCsvTable(lookup.file, lookup)) table.set((row[lookup.key] ?? '').trim(), '');
  return table;
}

async function validateSource(level: LevelName, source: FileSource): Promise<SourceReport> {
  const stats: ReadStats = { encoding: '' };
  const report: SourceReport = {
    file: source.file,
    format: source.format,
    encoding: '',
    read: 0,
    skipped: 0,
    rejected: 0,
    swallowedLines: 0,
    rejects: {},
  };
  const count = (reason: RejectReason, item: SourceItem, detail: string, weight: number) => {
    report.rejected += weight;
    const r = (report.rejects[reason] ??= { count: 0, samples: [] });
    r.count += weight;
    if (r.samples.length < SAMPLES) r.samples.push({ line: item.position, detail, ...rowOf(item) });
  };
  const lookup = await lookupOf(source).catch(() => undefined);
  if (lookup) report.lookupMisses = { count: 0, samples: [] };
  try {
    for await (const item of readSource(source, undefined, stats, level)) {
      const outcome = classifyItem(item, source);
      if (outcome.kind === 'skipped') {
        report.skipped++;
        continue;
      }
      if (outcome.kind === 'rejected') {
        report.read += outcome.weight;
        report.swallowedLines += outcome.weight - 1;
        count(outcome.rejection.reason, item, outcome.rejection.detail, outcome.weight);
        continue;
      }
      report.read++;
      const transformed = transformOutcome(level, source, item);
      if (!transformed.ok) count(transformed.reason, item, transformed.detail, 1);
      else if (lookup && report.lookupMisses && source.parent?.by === 'code') {
        const code = readField(item.props, source.parent.field);
        if (!lookup.has(code)) {
          report.lookupMisses.count++;
          if (report.lookupMisses.samples.length < SAMPLES) report.lookupMisses.samples.push(code);
        }
      }
    }
    if (level === 'addresses' && source.format === 'osm-pbf') {
      const { streets, places } = await readOsmFeatures(source.file);
      report.osm = { streetWays: streets.length, placeNodes: places.length };
    }
  } catch (error) {
    report.error = (error as Error).message;
  }
  report.encoding = stats.encoding;
  if (stats.lines !== undefined) report.lines = stats.lines;
  if (stats.statuses) report.statuses = stats.statuses;
  return report;
}

/** What makes a run on this input fail (or lose data unnoticed), one line each. */
function reportProblems(level: LevelName, reports: SourceReport[], maxRejectRatio: number): string[] {
  const problems: string[] = [];
  for (const r of reports) {
    if (r.error) problems.push(r.error);
    if (r.lookupMisses && r.read - r.rejected > 0 && r.lookupMisses.count === r.read - r.rejected) {
      problems.push(`${r.file}: no record's code is in the lookup table (${r.lookupMisses.samples.join(', ')}, …)`);
    }
  }
  const read = reports.reduce((n, r) => n + r.read, 0);
  const rejected = reports.reduce((n, r) => n + r.rejected, 0);
  const ratio = read > 0 ? rejected / read : 0;
  if (ratio > maxRejectRatio) {
    problems.push(
      `${level}: ${rejected} of ${read} records rejected (${(ratio * 100).toFixed(2)}%), above the maximum ${(maxRejectRatio * 100).toFixed(2)}%`,
    );
  }
  return problems;
}

export async function validateManifest(
  manifestPath: string,
  options: { maxRejectRatio?: number } = {},
): Promise<ValidationReport> {
  const maxRejectRatio = options.maxRejectRatio ?? 0.01;
  let loaded;
  try {
    loaded = await loadManifest(manifestPath);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return { ok: false, manifest: manifestPath, levels: {}, problems: [error.message] };
  }
  const problems = await sourceProblems(loaded.manifest);
  const levels: ValidationReport['levels'] = {};
  for (const level of LEVELS) {
    const sources = (loaded.manifest.levels[level] ?? []).filter((s): s is FileSource => s.format !== 'derived');
    if (!sources.length) continue;
    const reports: SourceReport[] = [];
    for (const source of sources) reports.push(await validateSource(level, source));
    levels[level] = reports;
    problems.push(...reportProblems(level, reports, maxRejectRatio));
  }
  return { ok: problems.length === 0, manifest: loaded.path, levels, problems };
}
