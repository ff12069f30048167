/**
 * The configuration tables (the README's short one, docs/configuration.md's full one) against the schemas that read
 * the environment: every variable the code reads is a row of each, once, and no row names one the code does not
 * read. And the README stays a front door: no line over 160 characters, no date.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DevelopmentEnvSchema } from '../../core/config/development.js';
import { IndexerEnvSchema } from '../../core/config/indexer.js';
import { MapBaseEnvSchema } from '../../src/config/mapBase.js';
import { EnvSchema } from '../../src/config/service.js';
import { TileSeedingEnvSchema } from '../../src/config/tileSeeding.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(resolve(repoRoot, path), 'utf8');

/** Every variable the programs read: their schemas' keys, and the one the Elasticsearch client reads itself. */
const readByCode = new Set([
  ...Object.keys(EnvSchema.shape),
  ...Object.keys(MapBaseEnvSchema.shape),
  ...Object.keys(TileSeedingEnvSchema.shape),
  ...Object.keys(IndexerEnvSchema.shape),
  ...Object.keys(DevelopmentEnvSchema.shape),
  // core/elasticsearch/client.ts defaults it to false before the client library reads it.
  'OTEL_ELASTICSEARCH_ENABLED',
]);

/** The variables a file's tables document: rows whose first cell is a variable's name (or several, comma-separated). */
function tableVariables(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => /^\| ((?:`[A-Z][A-Z0-9_]+`(?:, )?)+) +\|/.exec(line)?.[1])
    .flatMap((cell) => (cell === undefined ? [] : [...cell.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!)));
}

describe.each(['README.md', 'docs/configuration.md'])('the configuration tables of %s', (file) => {
  const documented = tableVariables(read(file));

  it('name every variable the code reads, once', () => {
    const missing = [...readByCode].filter((name) => !documented.includes(name));
    const repeated = documented.filter((name, i) => documented.indexOf(name) !== i);
    expect({ missing, repeated }).toEqual({ missing: [], repeated: [] });
  });

  it('name no variable the code does not read', () => {
    expect(documented.filter((name) => !readByCode.has(name))).toEqual([]);
  });
});

describe('the README', () => {
  const lines = read('README.md').split('\n');

  it('has no line over 160 characters', () => {
    expect(lines.flatMap((line, i) => (line.length > 160 ? [`${i + 1}: ${line.length}`] : []))).toEqual([]);
  });

  it('has no date: the dated runs are in docs/bench-log/', () => {
    expect(lines.filter((line) => /20\d{2}|Nov|Dec/.test(line))).toEqual([]);
  });
});
