/**
 * BeST Address's CSV and OpenAddresses (CSV and GeoJSON lines), as published, indexed through the real indexer
 * into the real Elasticsearch with no field mapping in the manifest (fixtures: data/fixtures/best, real Brussels
 * rows; data/fixtures/openaddresses, real Delft rows), read back through the API: the source ids on every answer,
 * Brussels' names in both languages, the box read like `bus N`, non-current BeST statuses absent.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexing } from '../../../../indexer/commands/index.js';
import { runUpdate } from '../../../../indexer/commands/update.js';
import type { RunSummary } from '../../../../indexer/execution/summary.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { boxPolygon } from '../../../support/geometry.js';
import { createTestClient, deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../../support/elasticsearch.js';
import { tmpdir } from 'node:os';

const BEST = resolve('data/fixtures/best/openaddress-bebru.csv');
const OA_CSV = resolve('data/fixtures/openaddresses/nl-delft.csv');
const OA_JSON = resolve('data/fixtures/openaddresses/nl-delft.geojson');
type Row = Record<string, string>;
const best = parse<Row>(readFileSync(BEST), { columns: true });
const oaCsv = parse<Row>(readFileSync(OA_CSV), { columns: true });
const oaJson = readFileSync(OA_JSON, 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { properties: Row }).properties);

const prefix = uniqueIndexPrefix('official-csv');
const tmp = join(tmpdir(), `official-csv-${process.pid}`);
let client: Client;
let api: TestApi;
let summary: RunSummary;

/** Two country boxes, Brussels' 19 municipalities (Statbel, names in three languages), derived cities, the three files. */
function manifest(): string {
  mkdirSync(tmp, { recursive: true });
  const countries = [
    {
      type: 'Feature',
      properties: { iso_a3: 'NLD', iso_a2: 'NL', name: 'Nederland' },
      geometry: boxPolygon(3.3, 51.5, 7.3, 53.6),
    },
    {
      type: 'Feature',
      properties: { iso_a3: 'BEL', iso_a2: 'BE', name: 'Belgique' },
      geometry: boxPolygon(2.5, 49.4, 6.5, 51.49),
    },
  ];
  writeFileSync(join(tmp, 'countries.geojson'), JSON.stringify({ type: 'FeatureCollection', features: countries }));
  const be = JSON.parse(readFileSync('data/sample/be/be_municipalities_2019.geojson', 'utf8')) as {
    features: { properties: { nis: string } }[];
  };
  const brussels = be.features.filter((f) => f.properties.nis.startsWith('21'));
  writeFileSync(join(tmp, 'brussels.geojson'), JSON.stringify({ type: 'FeatureCollection', features: brussels }));
  const sample = JSON.parse(readFileSync('datasets/sample.json', 'utf8')) as {
    levels: { municipalities: { fields: object }[] };
  };
  const m = {
    levels: {
      countries: [
        {
          file: 'countries.geojson',
          format: 'geojson',
          fields: { key: 'iso_a3', name: 'name', localIdentifier: 'iso_a2' },
        },
      ],
      municipalities: [
        { file: 'brussels.geojson', format: 'geojson', fields: sample.levels.municipalities[1]?.fields },
      ],
      cities: [{ format: 'derived', from: 'addresses' }],
      addresses: [
        { file: BEST, format: 'best-csv' },
        { file: OA_CSV, format: 'openaddresses' },
        { file: OA_JSON, format: 'openaddresses' },
      ],
    },
  };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(m));
  return join(tmp, 'manifest.json');
}

beforeAll(async () => {
  client = createTestClient();
  summary = await runIndexing({
    client,
    manifestPath: manifest(),
    indexPrefix: prefix,
    progress: 'none',
    rejectsPath: join(tmp, 'rejects.jsonl'),
    handleSignals: false,
  });
  api = await startTestApi({ indexPrefix: prefix });
});

afterAll(async () => {
  await api?.close();
  await deleteIndexesWithPrefix(client, prefix);
  await client?.close();
});

const forward = (body: object) => api.call('POST', '/geocode/forward', { body });

describe('"format": "best-csv"', () => {
  it('reads the current addresses, counting and skipping the others, each joined to its municipality by NIS code', () => {
    expect(summary.ok).toBe(true);
    const source = summary.levels.addresses.sources[0];
    expect(source).toMatchObject({ read: 259, skipped: 4, rejected: 0 });
    expect(source?.statuses).toEqual({ kept: { current: 259 }, skipped: { retired: 2, proposed: 1, reserved: 1 } });
    // Every BeST address has its municipality; the Delft rows of OpenAddresses have none in this manifest.
    expect(summary.levels.addresses.unassigned.municipalities).toBe(oaCsv.length + oaJson.length);
  });

  it('a box number reads as `bus N`; the answer and GET /addresses/{id} carry the BeST address id', async () => {
    const row = best.find((r) => r.streetname_nl === 'Nieuwstraat' && r.box_number === 'b003') as Row;
    const res = await forward({ streetname: 'Nieuwstraat', number: `${row.house_number} bus 3`, city: 'Brussel' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      streetname: 'Nieuwstraat',
      number: row.house_number,
      source_ids: { best_address: row.address_id },
    });
    expect(res.body.match.number).toBe('exact');
    const byId = await api.call('GET', `/addresses/${res.body.id}`);
    expect(byId.body).toMatchObject({
      source_ids: { best_address: row.address_id },
      names: { streetname: { nl: 'Nieuwstraat', fr: 'Rue Neuve' } },
    });
  });

  it('a Brussels address is found by its French names and answers in both languages', async () => {
    const row = best.find((r) => r.streetname_nl === 'Nieuwstraat' && r.house_number === '5' && !r.box_number) as Row;
    const fr = await forward({ streetname: 'Rue Neuve', number: '5', city: 'Bruxelles' });
    expect(fr.status).toBe(200);
    expect(fr.body).toMatchObject({ streetname: 'Rue Neuve', source_ids: { best_address: row.address_id } });
    expect(fr.body.names.streetname).toEqual({ nl: 'Nieuwstraat', fr: 'Rue Neuve' });
    const search = await api.call('GET', `/search?q=${encodeURIComponent('Rue Neuve 5 Bruxelles')}`);
    expect(search.body[0]).toMatchObject({
      type: 'address',
      id: fr.body.id,
      source_ids: { best_address: row.address_id },
    });
    const reverse = await api.call('GET', `/reverse?lat=${fr.body.latitude}&lon=${fr.body.longitude}`);
    expect(reverse.body.areas.municipality).toMatchObject({ local_identifier: row.municipality_id });
  });

  it('retired, proposed and reserved addresses are not in the index', async () => {
    const others = best.filter((r) => r.status !== 'current');
    expect(others).toHaveLength(4);
    for (const row of others) {
      const res = await client.count({
        index: aliasName(prefix, 'addresses'),
        query: { term: { 'source_ids.best_address': row.address_id as string } },
      });
      expect(res.count).toBe(0);
    }
    const kept = await client.count({
      index: aliasName(prefix, 'addresses'),
      query: { exists: { field: 'source_ids.best_address' } },
    });
    expect(kept.count).toBe(259);
  });
});

describe('"format": "openaddresses"', () => {
  it('reads the CSV and the GeoJSON lines, every row', () => {
    expect(summary.levels.addresses.sources.slice(1)).toEqual([
      expect.objectContaining({ read: oaCsv.length, rejected: 0 }),
      expect.objectContaining({ read: oaJson.length, rejected: 0 }),
    ]);
  });

  it('answers carry ID and HASH from either form', async () => {
    for (const row of [oaCsv[3], oaJson[3]] as Row[]) {
      const street = row.STREET ?? row.street;
      const number = row.NUMBER ?? row.number;
      const res = await forward({ streetname: street, number, postcode: row.POSTCODE ?? row.postcode });
      expect(res.status).toBe(200);
      expect(res.body.match.number).toBe('exact');
      const byId = await api.call('GET', `/addresses/${res.body.id}`);
      expect(byId.body.source_ids).toEqual({
        openaddresses_id: row.ID ?? row.id,
        openaddresses_hash: row.HASH ?? row.hash,
      });
    }
  });
});

describe('update of an official source', () => {
  it('counts an address whose id changed (a new box, a renamed street) as changed by its BeST address id', async () => {
    // B: the BeST file with one address's box changed and another's street renamed in both languages (rows
    // without quotes; the address ids stay): each is a removed and an added document, but one changed address.
    const lines = readFileSync(BEST, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const col = (name: string) => header.indexOf(name);
    const edit = (id: string, change: (cells: string[]) => void) => {
      const i = lines.findIndex((l) => l.split(',')[col('address_id')] === id);
      const cells = lines[i]!.split(',');
      change(cells);
      lines[i] = cells.join(',');
    };
    edit('9000002', (c) => (c[col('box_number')] = 'A307'));
    edit('9000001', (c) => {
      c[col('streetname_nl')] = 'Aalbessenweg';
      c[col('streetname_fr')] = 'Chemin des Groseilles';
    });
    const b = join(tmp, 'best-b.csv');
    writeFileSync(b, lines.join('\n'));
    const m = JSON.parse(readFileSync(join(tmp, 'manifest.json'), 'utf8')) as {
      levels: { addresses: { file: string }[] };
    };
    m.levels.addresses[0]!.file = b;
    writeFileSync(join(tmp, 'manifest-b.json'), JSON.stringify(m));
    const dry = await runUpdate({
      client,
      manifestPath: join(tmp, 'manifest-b.json'),
      indexPrefix: prefix,
      progress: 'none',
      handleSignals: false,
      dryRun: true,
    });
    expect(dry.changes?.addresses).toMatchObject({ added: 2, removed: 2 });
    expect(dry.addressesBySourceId).toEqual({
      ...dry.changes?.addresses,
      added: 0,
      removed: 0,
      changed: (dry.changes?.addresses.changed ?? 0) + 2,
    });
  }, 120_000);
});
