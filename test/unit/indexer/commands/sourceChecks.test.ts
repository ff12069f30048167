/**
 * What the indexer checks of its input without Elasticsearch: how an item read from a file counts (sourceItems.ts),
 * the headers and lookup tables before any index (preflight.ts), and the validate command's full read (validate.ts),
 * on damaged copies of the sample's Delft addresses.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseManifest } from '../../../../indexer/manifest/manifest.js';
import { sourceProblems } from '../../../../indexer/commands/preflight.js';
import { classifyItem } from '../../../../indexer/transform/sourceItems.js';
import { validateManifest } from '../../../../indexer/commands/validate.js';

const dir = mkdtempSync(join(tmpdir(), 'indexer-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const delft = readFileSync('data/sample/osm/delft_addresses.csv', 'utf8').split(/\r?\n/);
const header = delft[0] as string;
const rows = delft.slice(1, 401);

const addressFields = {
  street: 'street',
  number: 'housenumber',
  postcode: 'postcode',
  city: 'city',
  lon: 'lon',
  lat: 'lat',
};

function manifestWith(csv: string, source: Record<string, unknown> = {}): string {
  const name = `m${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, `${name}.csv`), csv);
  const manifest = {
    levels: { addresses: [{ file: `${name}.csv`, format: 'csv', fields: addressFields, ...source }] },
  };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(manifest));
  return join(dir, `${name}.json`);
}

describe('how a source item counts', () => {
  const source = { filter: [], multilineFields: undefined };
  it('a multi-line record is rejected once per line it covers, unless the source allows multi-line fields', () => {
    const item = { position: 10, lines: 3, props: { a: 'x\ny\nz' } };
    expect(classifyItem(item, source)).toMatchObject({
      kind: 'rejected',
      weight: 3,
      rejection: { reason: 'multiline_record', detail: expect.stringMatching(/lines 10-12 .*"multilineFields": true/) },
    });
    expect(classifyItem(item, { ...source, multilineFields: true })).toEqual({ kind: 'record' });
  });

  it('an unreadable stretch counts its lines, even where a filter would have dropped it', () => {
    const item = { position: 5, lines: 200, props: {}, error: 'a quote … never closed' };
    const filtered = { filter: [{ property: 'kind', equals: 'x' }], multilineFields: true };
    expect(classifyItem(item, filtered)).toMatchObject({ kind: 'rejected', weight: 200 });
    expect(classifyItem({ position: 5, props: { kind: 'y' } }, filtered)).toEqual({ kind: 'skipped' });
  });
});

describe('before any index is created', () => {
  it('a mapped column missing from the header is named, with the columns the file has', async () => {
    const path = manifestWith(`${header}\n${rows.join('\n')}\n`);
    const manifest = parseManifest({ ...JSON.parse(readFileSync(path, 'utf8')) }, dir);
    const source = manifest.levels.addresses?.[0];
    if (source) source.fields.street = 'straat';
    const problems = await sourceProblems(manifest);
    expect(problems).toEqual([
      expect.stringMatching(/\.csv: column "straat" not in the header; the file's columns: osm_type, osm_id, street,/),
    ]);
  });

  it('a lookup table without its key column, and an empty one', async () => {
    writeFileSync(join(dir, 'lookup-bad.csv'), 'code,province\nGM1,PV1\n');
    writeFileSync(join(dir, 'lookup-empty.csv'), 'gemeentecode,provinciecode\n');
    const area = (lookup: string) => ({
      file: '../../..' + 'data/sample/nl/cbs_gemeenten_2023.geojson',
      format: 'geojson',
      fields: { key: 'gemeentecode', name: 'gemeentenaam' },
      parent: {
        by: 'code',
        field: 'gemeentecode',
        lookup: { file: lookup, key: 'gemeentecode', value: 'provinciecode' },
      },
    });
    const manifest = parseManifest(
      { levels: { municipalities: [area('lookup-bad.csv'), area('lookup-empty.csv')] } },
      dir,
    );
    expect(await sourceProblems(manifest)).toEqual([
      expect.stringMatching(
        /lookup-bad\.csv: columns "gemeentecode", "provinciecode" not in the header; the file's columns: code, province$/,
      ),
      expect.stringMatching(/lookup-empty\.csv: lookup table has no row with a "gemeentecode"$/),
    ]);
  });
  it('a names table without the columns it maps', async () => {
    writeFileSync(join(dir, 'names-bad.csv'), 'iso_3166_2,name_nl\nBE-BRU,Brussels Hoofdstedelijk Gewest\n');
    const manifest = parseManifest(
      {
        levels: {
          provinces: [
            {
              file: '../../..' + 'data/sample/world/ne_10m_admin1_be.geojson',
              format: 'geojson',
              fields: { key: 'iso_3166_2', name: 'name' },
              namesTable: {
                file: 'names-bad.csv',
                key: 'iso_3166_2',
                field: 'iso_3166_2',
                names: { nl: 'name_nl', fr: 'name_fr' },
              },
            },
          ],
        },
      },
      dir,
    );
    expect(await sourceProblems(manifest)).toEqual([
      expect.stringMatching(
        /names-bad\.csv: column "name_fr" not in the header; the file's columns: iso_3166_2, name_nl$/,
      ),
    ]);
  });
});

describe('validate', () => {
  it('a stray quote: the lines it swallowed are rejects, past the ratio: not ok', async () => {
    const broken = rows.slice(0, 200).join('\n') + '\n' + rows[200]?.replace(',Delft,', ',"Delft,') + '\n';
    const path = manifestWith(`${header}\n${broken}${rows.slice(201, 400).join('\n')}\n`);
    const report = await validateManifest(path);
    expect(report.ok).toBe(false);
    const file = report.levels.addresses?.[0];
    expect(file).toMatchObject({ lines: 401, read: 400, rejected: 200, swallowedLines: 199, encoding: 'utf-8' });
    expect(file?.rejects.malformed_record).toMatchObject({
      count: 200,
      samples: [{ line: 202, detail: expect.stringMatching(/quote opened in the record at line 202 is never closed/) }],
    });
    expect(report.problems).toEqual(['addresses: 200 of 400 records rejected (50.00%), above the maximum 1.00%']);
  });

  it('a Latin-1 file: not ok, naming line and byte; with its encoding named: ok, every row read', async () => {
    const latin1 = Buffer.from(`${header}\n${delft.slice(1, 60).join('\n')}\n`, 'latin1');
    const bad = manifestWith('');
    writeFileSync(bad.replace(/\.json$/, '.csv'), latin1);
    const report = await validateManifest(bad);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.stringMatching(/\.csv: not valid UTF-8 at line 6, byte offset \d+ \(0xf6 /),
    ]);
    const good = manifestWith('', { encoding: 'windows-1252' });
    writeFileSync(good.replace(/\.json$/, '.csv'), latin1);
    const fixed = await validateManifest(good);
    expect(fixed.ok).toBe(true);
    expect(fixed.levels.addresses?.[0]).toMatchObject({ read: 59, rejected: 0, encoding: 'windows-1252', lines: 60 });
  });

  it("the sample's addresses and municipalities: ok, the CSV with its physical lines, the lookup joining all", async () => {
    const sample = JSON.parse(readFileSync('datasets/sample.json', 'utf8')) as { levels: Record<string, unknown> };
    const path = join(dir, 'sample-subset.json');
    const levels = { municipalities: sample.levels.municipalities, addresses: sample.levels.addresses };
    // Paths in the sample are relative to datasets/: resolve them from the manifest written here.
    const text = JSON.stringify({ levels }).replaceAll('"../data/', `"${join(process.cwd(), 'data')}/`);
    writeFileSync(path, text);
    const report = await validateManifest(path);
    expect(report.problems).toEqual([]);
    expect(report.levels.addresses?.[0]).toMatchObject({ read: 8917, rejected: 0, lines: 8918, encoding: 'utf-8' });
    expect(report.levels.municipalities?.[0]).toMatchObject({ read: 342, skipped: 1, rejected: 0 });
    expect(report.levels.municipalities?.[0]?.lookupMisses).toEqual({ count: 0, samples: [] });
  }, 60_000);
});
