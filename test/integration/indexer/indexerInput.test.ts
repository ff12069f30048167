/**
 * Damaged source files against the real Elasticsearch, as a data team would hand them over: copies of the sample's
 * Delft addresses with a stray quote, re-encoded as Latin-1, gzipped and cut short, with a BOM and CRLF line ends,
 * mapped to a column the file does not have, or missing. Each run either fails (the aliases stay on the generation
 * that was live, nothing of the run is left) or succeeds having read every row, never a quiet partial or garbled load.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Client } from '@elastic/elasticsearch';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexingError } from '../../../indexer/execution/errors.js';
import { ManifestError } from '../../../indexer/manifest/manifest.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../../core/elasticsearch/indexNames.js';
import { boxPolygon } from '../../support/geometry.js';
import { createLiveGeneration, generationIndexesOf } from '../../support/generations.js';
import { aliasTargets, indexerTestSpace } from '../../support/indexerTests.js';

/** Older than any generation a run makes now: stands for what a previous run left live. */
const EARLIER = '20200101000000000';

const space = indexerTestSpace('indexer-input');
const { tmp, ownPrefix } = space;
let client: Client;
beforeAll(() => {
  client = space.client;
});

const delft = readFileSync('data/sample/osm/delft_addresses.csv', 'utf8').split(/\r?\n/);
const HEADER = delft[0] as string;
/** 400 rows (Isaäc da Costalaan among them): a run takes a few seconds. */
const ROWS = delft.slice(1, 401);
const text = (rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;

/** A manifest of one country (a box round Delft) and the given address file, with extra keys on its source. */
function fixture(name: string, file: string, bytes: Buffer | string | null, source: object = {}): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const country = { type: 'Feature', properties: { iso_a3: 'NLD', name: 'NL' }, geometry: boxPolygon(4, 51, 5, 53) };
  writeFileSync(join(dir, 'countries.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [country] }));
  if (bytes !== null) writeFileSync(join(dir, file), bytes);
  // The sample manifest's own mapping of these columns.
  const sample = JSON.parse(readFileSync('datasets/sample.json', 'utf8')) as {
    levels: { addresses: { fields: object }[] };
  };
  const fields = sample.levels.addresses[0]?.fields;
  const manifest = {
    levels: {
      countries: [{ file: 'countries.geojson', format: 'geojson', fields: { key: 'iso_a3', name: 'name' } }],
      addresses: [{ file, format: 'csv', fields, ...source }],
    },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return join(dir, 'manifest.json');
}

function run(manifestPath: string, prefix: string): Promise<RunSummary> {
  return runIndexing({
    client,
    manifestPath,
    indexPrefix: prefix,
    progress: 'none',
    rejectsPath: join(tmp, `${prefix}rejects.jsonl`),
    handleSignals: false,
  });
}

/** Runs `manifest` on a prefix with a live generation, expects it to fail, and checks nothing changed. */
async function failingRun(label: string, manifest: string): Promise<IndexingError> {
  const p = ownPrefix(label);
  await createLiveGeneration(client, p, EARLIER);
  const before = await generationIndexesOf(client, p);
  const error = await run(manifest, p).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(IndexingError);
  expect((error as IndexingError).summary).toMatchObject({ ok: false, aliasesSwapped: false });
  expect(await aliasTargets(client, p)).toEqual(
    Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, EARLIER)]])),
  );
  expect(await generationIndexesOf(client, p)).toEqual(before);
  return error as IndexingError;
}

/** A manifest the run refuses before creating anything: not even the lock's index exists under the prefix. */
async function refusedRun(label: string, manifest: string): Promise<ManifestError> {
  const p = ownPrefix(label);
  const error = await run(manifest, p).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ManifestError);
  expect(await client.cat.indices({ index: `${p}*`, format: 'json', h: 'index' })).toEqual([]);
  return error as ManifestError;
}

describe('a damaged address file', () => {
  it('a stray quote: the 200 lines it swallowed are 200 rejects, the run fails, the aliases stay', async () => {
    const rows = [...ROWS];
    rows[200] = (rows[200] as string).replace(',Delft,', ',"Delft,');
    const error = await failingRun('quote', fixture('quote', 'addresses.csv', text(rows)));
    const summary = error.summary as RunSummary;
    expect(summary.levels.addresses).toMatchObject({
      read: 400,
      rejected: 200,
      rejectReasons: { malformed_record: 200 },
    });
    expect(summary.levels.addresses.sources[0]).toMatchObject({ lines: 401, read: 400, swallowedLines: 199 });
    expect(summary.problems).toContain('addresses: 200 of 400 records rejected (50.00%), above the maximum 1.00%');
    const rejects = readFileSync(join(tmp, `${summary.prefix}rejects.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(rejects.map((l) => JSON.parse(l) as { line: number; lines: number; detail: string })).toEqual([
      expect.objectContaining({
        line: 202,
        lines: 200,
        detail: expect.stringMatching(/quote opened in the record at line 202 is never closed/),
      }),
    ]);
  });

  it('Latin-1: the run fails naming the line and byte; with its encoding named, every street reads right', async () => {
    const latin1 = Buffer.from(text(ROWS), 'latin1');
    const error = await failingRun('latin1', fixture('latin1', 'addresses.csv', latin1));
    expect(error.message).toMatch(/latin1\/addresses\.csv: not valid UTF-8 at line \d+, byte offset \d+ .*"encoding"/);

    const p = ownPrefix('latin1-named');
    const summary = await run(fixture('latin1-named', 'addresses.csv', latin1, { encoding: 'windows-1252' }), p);
    expect(summary.levels.addresses).toMatchObject({ read: 400, rejected: 0 });
    expect(summary.levels.addresses.sources[0]).toMatchObject({ encoding: 'windows-1252', lines: 401 });
    const isaac = await client.count({
      index: aliasName(p, 'addresses'),
      query: { term: { streetname: 'Isaäc da Costalaan' } },
    });
    expect(isaac.count).toBeGreaterThan(0);
    const garbled = await client.count({
      index: aliasName(p, 'addresses'),
      query: { wildcard: { streetname: { value: '*\uFFFD*' } } },
    });
    expect(garbled.count).toBe(0);
  });

  it('a truncated .gz: the run fails naming the file and how far it got, the aliases stay', async () => {
    const whole = gzipSync(text(ROWS));
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    const error = await failingRun('truncated', fixture('truncated', 'addresses.csv.gz', cut));
    expect(error.message).toMatch(
      /truncated\/addresses\.csv\.gz: gzip data truncated or damaged \(unexpected end of file\) after \d+ of \d+ bytes of the file, \d+ bytes decompressed, \d+ lines; \d+ records read before it/,
    );
  });

  // (The sample file itself has CRLF line ends: every test here reads LF text made from it.)
  it('a BOM and CRLF line ends: every row read and indexed, the first column mapped', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text(ROWS).replaceAll('\n', '\r\n'))]);
    const p = ownPrefix('bom-crlf');
    const summary = await run(fixture('bom-crlf', 'addresses.csv', bytes), p);
    expect(summary.ok).toBe(true);
    expect(summary.levels.addresses).toMatchObject({ read: 400, rejected: 0 });
    expect(summary.levels.addresses.sources[0]).toMatchObject({ lines: 401, encoding: 'utf-8' });
    // osm_type, the first column, is mapped (sourceId): behind an unstripped BOM its name would not match the
    // header and the run would have been refused before it began.
  });
});

describe('a header with a space after each comma', () => {
  it('every column it names is loaded: the addresses and the French street names joined to them', async () => {
    const spaced = (header: string) => header.split(',').join(', ');
    const addresses = `${spaced(HEADER)}\n${ROWS.join('\n')}\n`;
    const manifest = fixture('spaced', 'addresses.csv', addresses, {
      streetNames: { file: 'streets.csv', language: 'nl', street: 'street_nl', names: { fr: 'street_fr' } },
    });
    writeFileSync(join(tmp, 'spaced', 'streets.csv'), `${spaced('street_nl,street_fr')}\nHerculesweg,Rue d'Hercule\n`);
    const p = ownPrefix('spaced');
    const summary = await run(manifest, p);
    expect(summary.ok).toBe(true);
    expect(summary.levels.addresses).toMatchObject({ read: 400, rejected: 0 });
    const found = await client.search<{ street_names?: Record<string, string> }>({
      index: aliasName(p, 'addresses'),
      query: { term: { streetname: 'Herculesweg' } },
      size: 100,
    });
    expect(found.hits.hits).toHaveLength(62);
    for (const hit of found.hits.hits) {
      expect(hit._source?.street_names).toEqual({ nl: 'Herculesweg', fr: "Rue d'Hercule" });
    }
  });
});

describe('a manifest that does not fit its files: refused before any index exists', () => {
  it('a mapped column not in the header: named, with the columns the file has', async () => {
    const manifest = fixture('column', 'addresses.csv', text(ROWS));
    const raw = JSON.parse(readFileSync(manifest, 'utf8')) as {
      levels: { addresses: { fields: Record<string, unknown> }[] };
    };
    (raw.levels.addresses[0] as { fields: Record<string, unknown> }).fields.street = 'straat';
    writeFileSync(manifest, JSON.stringify(raw));
    const missing = await refusedRun('column', manifest);
    expect(missing.message).toMatch(
      /does not fit its files:\n {2}\S+column\/addresses\.csv: column "straat" not in the header; the file's columns: osm_type, osm_id, street, /,
    );
  });

  it('a missing address file', async () => {
    const error = await refusedRun('missing', fixture('missing', 'addresses.csv', null));
    expect(error.message).toMatch(/names files that cannot be read:\n {2}\S+missing\/addresses\.csv: ENOENT/);
  });
});

describe('validate', () => {
  function validate(manifest: string): Promise<{ code: number | null; report: { ok: boolean; problems: string[] } }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', 'validate', '--manifest', manifest], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    return new Promise((resolve) =>
      child.on('exit', (code) => resolve({ code, report: JSON.parse(stdout) as { ok: boolean; problems: string[] } })),
    );
  }

  it('the CLI without Elasticsearch: exit 1 with what a run would lose', async () => {
    const rows = [...ROWS];
    rows[200] = (rows[200] as string).replace(',Delft,', ',"Delft,');
    const bad = await validate(fixture('validate-bad', 'addresses.csv', text(rows)));
    expect(bad.code).toBe(1);
    expect(bad.report).toMatchObject({
      ok: false,
      problems: ['addresses: 200 of 400 records rejected (50.00%), above the maximum 1.00%'],
    });
    // A clean file's report (exit 0): test/unit/indexer/commands/sourceChecks.test.ts, in process.
  }, 180_000);
});
