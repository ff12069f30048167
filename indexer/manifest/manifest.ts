/**
 * The dataset manifest: which files feed which level, how to read them, which property holds each
 * field and how a record finds its parent. Read from disk, validated (indexer/manifest/manifestSchema.ts) and its paths
 * resolved up front, so a typo fails before any index exists.
 */
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LEVELS } from '../base/levels.js';
import { type Manifest, ManifestSchema } from './manifestSchema.js';
import type { FileSource } from './manifestSources.js';

/** A validated manifest with every path made absolute (relative paths are relative to the manifest). */
export interface LoadedManifest {
  path: string;
  manifest: Manifest;
}

export class ManifestError extends Error {
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(issues.length ? `${message}:\n  ${issues.join('\n  ')}` : message);
    this.name = 'ManifestError';
  }
}

/** Pure: validate an already-parsed manifest and resolve its paths against `baseDir`. */
export function parseManifest(raw: unknown, baseDir: string): Manifest {
  const result = ManifestSchema.safeParse(raw);
  if (!result.success) {
    throw new ManifestError(
      'invalid manifest',
      result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  const manifest = result.data;
  for (const level of LEVELS) {
    for (const source of manifest.levels[level] ?? []) {
      if (source.format === 'derived') continue;
      source.file = resolve(baseDir, source.file);
      for (const table of joinTables(source)) table.file = resolve(baseDir, table.file);
    }
  }
  return manifest;
}

/**
 * The tables a source joins besides its own file: the parent lookup, an area's names table, the street names and
 * their scope's lookup.
 */
export function joinTables(source: FileSource): { file: string }[] {
  const tables: { file: string }[] = [];
  if (source.parent?.by === 'code' && source.parent.lookup) tables.push(source.parent.lookup);
  if ('namesTable' in source && source.namesTable) tables.push(source.namesTable);
  if ('streetNames' in source && source.streetNames) {
    tables.push(source.streetNames);
    if (source.streetNames.within?.lookup) tables.push(source.streetNames.within.lookup);
  }
  return tables;
}

export async function loadManifest(path: string): Promise<LoadedManifest> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new ManifestError(`cannot read manifest ${absolute}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(`manifest ${absolute} is not JSON: ${(error as Error).message}`);
  }
  const manifest = parseManifest(raw, dirname(absolute));
  await assertSourcesReadable(absolute, manifest);
  return { path: absolute, manifest };
}

/** Every file the manifest names (sources and lookup tables), readable now: a typo fails before any index exists. */
async function assertSourcesReadable(manifestPath: string, manifest: Manifest): Promise<void> {
  const files = new Set<string>();
  for (const level of LEVELS) {
    for (const source of manifest.levels[level] ?? []) {
      if (source.format === 'derived') continue;
      files.add(source.file);
      for (const table of joinTables(source)) files.add(table.file);
    }
  }
  const missing: string[] = [];
  for (const file of files) {
    await access(file, constants.R_OK).catch((error: Error) => missing.push(`${file}: ${error.message}`));
  }
  if (missing.length) throw new ManifestError(`manifest ${manifestPath} names files that cannot be read`, missing);
}
