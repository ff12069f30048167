/**
 * What is checked of the source files before any index is created (after the manifest itself and the files'
 * existence, manifest.ts): every column a CSV source maps or filters on is in its header, every lookup
 * table has its key and value columns and at least one row, and every names table its key and names columns. A mistyped column then fails at once, naming the
 * columns the file does have, instead of after a whole file of rejects.
 */
import { LEVELS } from '../base/levels.js';
import { ManifestError } from '../manifest/manifest.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import type { FieldSpec, FileSource } from '../manifest/manifestSources.js';
import { readCsvHeader, readCsvTable } from '../sources/csv.js';
import { bagProblems } from '../sources/bag/readBag.js';
import { osmPbfProblems } from '../sources/osm/pbfBlobs.js';
import { fieldProperties } from '../transform/fields.js';

/** The columns a source reads: its fields, its filters and its parent code (mapped sources: official ones check their own layout). */
export function sourceColumns(source: FileSource): string[] {
  const specs: FieldSpec[] = Object.values(source.fields).filter((f): f is FieldSpec => f !== undefined);
  if (source.parent?.by === 'code') specs.push(source.parent.field);
  const columns = [...specs.flatMap(fieldProperties), ...source.filter.map((f) => f.property)];
  return [...new Set(columns)];
}

function missingColumns(file: string, wanted: string[], header: string[]): string | undefined {
  const have = new Set(header);
  const missing = wanted.filter((c) => !have.has(c));
  if (!missing.length) return undefined;
  const names = missing.map((c) => `"${c}"`).join(', ');
  return `${file}: column${missing.length > 1 ? 's' : ''} ${names} not in the header; the file's columns: ${header.join(', ')}`;
}

/** Every problem found, one line each (empty: the files fit the manifest). */
export async function sourceProblems(manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  const note = (error: unknown) => problems.push((error as Error).message);
  for (const level of LEVELS) {
    for (const source of manifest.levels[level] ?? []) {
      if (source.format === 'derived') continue;
      if (source.format === 'bag-gpkg')
        problems.push(...bagProblems(source.file, level === 'cities' ? 'cities' : 'addresses'));
      if (source.format === 'osm-pbf') problems.push(...(await osmPbfProblems(source.file)));
      if (source.format === 'csv') {
        const header = await readCsvHeader(source.file, source).catch((e: unknown) => void note(e));
        const problem = header && missingColumns(source.file, sourceColumns(source), header);
        if (problem) problems.push(problem);
      }
      const names = 'namesTable' in source ? source.namesTable : undefined;
      if (names) {
        const header = await readCsvHeader(names.file, names).catch((e: unknown) => void note(e));
        const problem = header && missingColumns(names.file, [names.key, ...Object.values(names.names)], header);
        if (problem) problems.push(problem);
      }
      const lookup = source.parent?.by === 'code' ? source.parent.lookup : undefined;
      if (!lookup) continue;
      const header = await readCsvHeader(lookup.file, lookup).catch((e: unknown) => void note(e));
      const problem = header && missingColumns(lookup.file, [lookup.key, lookup.value], header);
      if (problem) {
        problems.push(problem);
        continue;
      }
      if (!header) continue;
      const rows = await readCsvTable(lookup.file, lookup).catch((e: unknown) => void note(e));
      if (rows && !rows.some((r) => (r[lookup.key] ?? '').trim())) {
        problems.push(`${lookup.file}: lookup table has no row with a "${lookup.key}"`);
      }
    }
  }
  return problems;
}

/** Throws a ManifestError listing every problem: the run stops before creating anything. */
export async function assertSourcesFit(manifestPath: string, manifest: Manifest): Promise<void> {
  const problems = await sourceProblems(manifest);
  if (problems.length) throw new ManifestError(`manifest ${manifestPath} does not fit its files`, problems);
}
