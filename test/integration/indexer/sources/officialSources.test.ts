/**
 * The official sources, indexed through the real indexer into the real Elasticsearch and read back through the API:
 * the BAG GeoPackage fixture (data/fixtures/bag, real Delft rows in PDOK's bag-light layout) with no field mapping
 * in the manifest. Answers of forward, search, reverse and GET /addresses/{id} carry the BAG ids; withdrawn objects
 * are absent; a damaged GeoPackage fails with nothing swapped; bad rows in a GeoPackage written here
 * (test/support/geoPackage.ts) are rejected one by one, naming file, table and fid, and the run goes on.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexingError } from '../../../../indexer/execution/errors.js';
import { ManifestError } from '../../../../indexer/manifest/manifest.js';
import { runIndexing } from '../../../../indexer/commands/index.js';
import type { RunSummary } from '../../../../indexer/execution/summary.js';
import { INDEX_KINDS } from '../../../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../../../core/elasticsearch/indexNames.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { boxPolygon } from '../../../support/geometry.js';
import { createLiveGeneration, generationIndexesOf } from '../../../support/generations.js';
import { aliasTargets, indexerTestSpace } from '../../../support/indexerTests.js';
import { uniqueIndexPrefix, deleteIndexesWithPrefix } from '../../../support/elasticsearch.js';
import {
  addressProps,
  type FeatureRow,
  gpkgBlob,
  square,
  wkbNested,
  wkbPoint,
  wkbPolygon,
  writeBagGeoPackage,
} from '../../../support/geoPackage.js';

const FIXTURE = resolve('data/fixtures/bag/bag-light.gpkg');
const GDAL = JSON.parse(readFileSync('data/fixtures/bag/gdal_positions.json', 'utf8')) as {
  table: string;
  identificatie: string;
  wgs84: [number, number];
}[];
const EARLIER = '20200101000000000';

const space = indexerTestSpace('official-sources');
const { tmp, ownPrefix } = space;
let client: Client;
let api: TestApi;
let summary: RunSummary;
const loaded = uniqueIndexPrefix('bag');

type Row = Record<string, string | number | null>;
function fixtureRows(sql: string): Row[] {
  const db = new DatabaseSync(FIXTURE, { readOnly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}

/** A manifest of a country box round the Netherlands and the GeoPackage at the cities and addresses levels. */
function manifest(name: string, gpkg: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const country = {
    type: 'Feature',
    properties: { iso_a3: 'NLD', name: 'NL' },
    geometry: boxPolygon(3, 50.7, 7.3, 53.6),
  };
  writeFileSync(join(dir, 'countries.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [country] }));
  const m = {
    levels: {
      countries: [{ file: 'countries.geojson', format: 'geojson', fields: { key: 'iso_a3', name: 'name' } }],
      cities: [{ file: gpkg, format: 'bag-gpkg' }],
      addresses: [{ file: gpkg, format: 'bag-gpkg' }],
    },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  return join(dir, 'manifest.json');
}

function run(manifestPath: string, prefix: string, maxRejectRatio?: number): Promise<RunSummary> {
  return runIndexing({
    client,
    manifestPath,
    indexPrefix: prefix,
    progress: 'none',
    rejectsPath: join(tmp, `${prefix}rejects.jsonl`),
    handleSignals: false,
    ...(maxRejectRatio !== undefined && { maxRejectRatio }),
  });
}

/** The house number as a person types it: 139A-104. */
const fullNumber = (row: Row) =>
  `${row.huisnummer}${row.huisletter ?? ''}${row.toevoeging ? `-${row.toevoeging}` : ''}`;

function metres(a: readonly number[], b: readonly number[]): number {
  const lat = (((a[1] as number) + (b[1] as number)) / 2) * (Math.PI / 180);
  return Math.hypot(
    ((a[0] as number) - (b[0] as number)) * 111_320 * Math.cos(lat),
    ((a[1] as number) - (b[1] as number)) * 110_574,
  );
}

beforeAll(async () => {
  client = space.client;
  summary = await run(manifest('loaded', FIXTURE), loaded);
  api = await startTestApi({ indexPrefix: loaded });
});

afterAll(async () => {
  await api?.close();
  await deleteIndexesWithPrefix(client, loaded);
});

const IN_USE = fixtureRows(
  `SELECT * FROM verblijfsobject WHERE status = 'Verblijfsobject in gebruik' AND pand_identificatie IS NOT NULL ` +
    `AND huisletter IS NULL AND toevoeging IS NULL ORDER BY fid LIMIT 3`,
);
const SKIPPED = fixtureRows(
  `SELECT * FROM verblijfsobject WHERE status IN ('Verblijfsobject ingetrokken', 'Niet gerealiseerd verblijfsobject', ` +
    `'Verblijfsobject ten onrechte opgevoerd') UNION ALL SELECT * FROM (SELECT fid, geom, identificatie, NULL, NULL, ` +
    `status, NULL, openbare_ruimte_naam, NULL, huisnummer, huisletter, toevoeging, postcode, woonplaats_naam, NULL, ` +
    `NULL, NULL, nummeraanduiding_hoofdadres_identificatie, NULL, NULL, NULL FROM ligplaats WHERE status = 'Plaats ingetrokken')`,
);
const STANDPLAATS = fixtureRows(`SELECT * FROM standplaats ORDER BY fid LIMIT 1`)[0] as Row;

describe('"format": "bag-gpkg"', () => {
  it('loads the GeoPackage as published, counting each status kept and skipped', () => {
    expect(summary.ok).toBe(true);
    expect(summary.levels.addresses).toMatchObject({ read: 322, skipped: 5, rejected: 0 });
    expect(summary.levels.addresses.sources[0]?.statuses).toEqual({
      kept: {
        'Verblijfsobject in gebruik': 312,
        'Verblijfsobject gevormd': 1,
        'Verbouwing verblijfsobject': 1,
        'Verblijfsobject buiten gebruik': 1,
        'Verblijfsobject in gebruik (niet ingemeten)': 1,
        'Plaats aangewezen': 6,
      },
      skipped: {
        'Verblijfsobject ingetrokken': 2,
        'Niet gerealiseerd verblijfsobject': 1,
        'Verblijfsobject ten onrechte opgevoerd': 1,
        'Plaats ingetrokken': 1,
      },
    });
    expect(summary.levels.cities).toMatchObject({ read: 2, skipped: 1, indexed: 2, rejected: 0 });
    expect(summary.levels.addresses.unassigned).toEqual({ countries: 0, cities: 0 });
  });

  it('forward and GET /addresses/{id}: the BAG ids, the position within 1 m of GDAL', async () => {
    expect(IN_USE).toHaveLength(3);
    for (const row of IN_USE) {
      const body = { streetname: row.openbare_ruimte_naam, number: String(row.huisnummer), city: row.woonplaats_naam };
      const forward = await api.call('POST', '/geocode/forward', { body });
      expect(forward.status).toBe(200);
      expect(forward.body).toMatchObject({ number: String(row.huisnummer), postcode: row.postcode });
      expect(forward.body.match.number).toBe('exact');
      const ids = {
        bag_nummeraanduiding: row.nummeraanduiding_hoofdadres_identificatie,
        bag_verblijfsobject: row.identificatie,
        bag_pand: row.pand_identificatie,
      };
      expect(forward.body.source_ids).toEqual(ids);
      const gdal = GDAL.find((p) => p.table === 'verblijfsobject' && p.identificatie === row.identificatie);
      expect(metres([forward.body.longitude, forward.body.latitude], gdal!.wgs84)).toBeLessThan(1);

      const byId = await api.call('GET', `/addresses/${forward.body.id}`);
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({
        streetname: row.openbare_ruimte_naam,
        city: row.woonplaats_naam,
        source_ids: ids,
      });
    }
  });

  it('GET /search and GET /reverse find a verblijfsobject; the city is the BAG woonplaats by its code', async () => {
    const row = IN_USE[0] as Row;
    const q = encodeURIComponent(`${row.openbare_ruimte_naam} ${row.huisnummer} ${row.woonplaats_naam}`);
    const search = await api.call('GET', `/search?q=${q}`);
    expect(search.status).toBe(200);
    expect(search.body[0]).toMatchObject({
      type: 'address',
      number: String(row.huisnummer),
      source_ids: { bag_verblijfsobject: row.identificatie },
    });
    const { latitude, longitude } = search.body[0];
    const reverse = await api.call('GET', `/reverse?lat=${latitude}&lon=${longitude}`);
    expect(reverse.status).toBe(200);
    expect(reverse.body.addresses[0]).toMatchObject({ id: search.body[0].id });
    expect(reverse.body.areas.city).toMatchObject({
      name: row.woonplaats_naam,
      local_identifier: expect.stringMatching(/^(2138|1143)$/),
    });
  });

  it('a standplaats is found at a point inside its outline, with its own BAG id', async () => {
    const body = {
      streetname: STANDPLAATS.openbare_ruimte_naam,
      number: fullNumber(STANDPLAATS),
      postcode: STANDPLAATS.postcode,
    };
    const forward = await api.call('POST', '/geocode/forward', { body });
    expect(forward.status).toBe(200);
    expect(forward.body.source_ids).toEqual({
      bag_nummeraanduiding: STANDPLAATS.nummeraanduiding_hoofdadres_identificatie,
      bag_standplaats: STANDPLAATS.identificatie,
    });
    const outline = GDAL.filter((p) => p.table === 'standplaats' && p.identificatie === STANDPLAATS.identificatie);
    const lons = outline.map((p) => p.wgs84[0]);
    expect(forward.body.longitude).toBeGreaterThan(Math.min(...lons));
    expect(forward.body.longitude).toBeLessThan(Math.max(...lons));
  });

  it('withdrawn, unrealised and wrongly registered objects are not in the index', async () => {
    expect(SKIPPED).toHaveLength(5);
    for (const row of SKIPPED) {
      const res = await client.count({
        index: aliasName(loaded, 'addresses'),
        query: { term: { 'source_ids.bag_nummeraanduiding': String(row.nummeraanduiding_hoofdadres_identificatie) } },
      });
      expect(res.count).toBe(0);
      const forward = await api.call('POST', '/geocode/forward', {
        body: { streetname: row.openbare_ruimte_naam, number: fullNumber(row), postcode: row.postcode },
      });
      if (forward.status === 200) expect(forward.body.match.number).not.toBe('exact');
    }
    const oud = await api.call('GET', '/search?q=Oud-Vrijenban');
    expect(oud.body.filter((r: { type: string }) => r.type === 'city')).toEqual([]);
  });
});

describe('a damaged GeoPackage', () => {
  function damaged(name: string, change: (file: string) => void): string {
    const dir = join(tmp, `gpkg-${name}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'bag-light.gpkg');
    copyFileSync(FIXTURE, file);
    change(file);
    return manifest(name, file);
  }

  async function refused(label: string, manifestPath: string): Promise<string> {
    const p = ownPrefix(label);
    await createLiveGeneration(client, p, EARLIER);
    const before = await generationIndexesOf(client, p);
    const error = await run(manifestPath, p).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManifestError);
    expect(await aliasTargets(client, p)).toEqual(
      Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, EARLIER)]])),
    );
    expect(await generationIndexesOf(client, p)).toEqual(before);
    return (error as Error).message;
  }

  it('truncated (a partial download): refused before any index, naming the file', async () => {
    const m = damaged('truncated', (file) => {
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    });
    expect(await refused('truncated', m)).toMatch(
      /gpkg-truncated\/bag-light\.gpkg: truncated: \d+ bytes, its header says/,
    );
  });

  it('in another SRS, or missing a column: refused naming the file, the table and what is wrong', async () => {
    const m = damaged('srs', (file) => {
      const db = new DatabaseSync(file);
      db.exec(`UPDATE gpkg_geometry_columns SET srs_id = 4326 WHERE table_name IN ('verblijfsobject', 'woonplaats')`);
      db.exec('ALTER TABLE standplaats DROP COLUMN postcode');
      db.close();
    });
    const message = await refused('srs', m);
    expect(message).toContain(
      'gpkg-srs/bag-light.gpkg, table verblijfsobject: geometry in EPSG:4326 (srs_id 4326), expected EPSG:28992',
    );
    expect(message).toContain('gpkg-srs/bag-light.gpkg, table woonplaats: geometry in EPSG:4326');
    expect(message).toContain('gpkg-srs/bag-light.gpkg, table standplaats: column postcode missing');
  });

  it('damaged inside (pages overwritten after the header checks passed): the run fails, nothing swapped', async () => {
    const m = damaged('pages', (file) => {
      const bytes = readFileSync(file);
      const page = bytes.readUInt16BE(16);
      // Every page from the middle on, but for the last, overwritten: the header still says the file is whole.
      for (let at = Math.floor(bytes.length / page / 2) * page; at < bytes.length - page; at += page) {
        bytes.fill(0xa5, at, at + page);
      }
      writeFileSync(file, bytes);
    });
    const p = ownPrefix('pages');
    await createLiveGeneration(client, p, EARLIER);
    const before = await generationIndexesOf(client, p);
    const error = await run(m, p).catch((e: unknown) => e);
    expect(error instanceof IndexingError || error instanceof ManifestError).toBe(true);
    expect((error as Error).message).toMatch(/gpkg-pages\/bag-light\.gpkg/);
    expect(await aliasTargets(client, p)).toEqual(
      Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, EARLIER)]])),
    );
    expect(await generationIndexesOf(client, p)).toEqual(before);
  });
});

describe('bad rows in a BAG GeoPackage', () => {
  const rd = (wkb: Buffer) => gpkgBlob(28992, wkb);
  /** 600 good verblijfsobjecten and 5 bad rows in three tables: 0.83 % of the addresses, under the default 1 %. */
  function withBadRows(name: string): string {
    const dir = join(tmp, `gpkg-${name}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'bag-light.gpkg');
    const vbo = (fid: number, geom: Buffer): FeatureRow => ({ fid, geom, props: addressProps(fid) });
    const place = (fid: number, geom: Buffer): FeatureRow => ({
      fid,
      geom,
      props: { ...addressProps(1000 + fid), status: 'Plaats aangewezen' },
    });
    const wrongMagic = rd(wkbPoint(85_000, 446_000));
    wrongMagic.write('XP', 0, 'latin1');
    const good = Array.from({ length: 600 }, (_, i) => vbo(i + 1, rd(wkbPoint(84_000 + 3 * i, 446_000 + (i % 7)))));
    writeBagGeoPackage(file, {
      verblijfsobject: [
        ...good.slice(0, 300),
        vbo(301, rd(wkbPoint(85_000, 446_000)).subarray(0, 26)),
        vbo(302, wrongMagic),
        vbo(303, rd(wkbNested(20_000))),
        ...good.slice(300).map((row) => ({ ...row, fid: row.fid + 3 })),
      ],
      standplaats: [place(1, rd(wkbPolygon([])))],
      ligplaats: [place(1, rd(wkbPolygon([square(85_100, 446_000, 10).slice(0, 3)])))],
      woonplaats: [
        {
          fid: 1,
          geom: rd(wkbPolygon([square(80_000, 440_000, 10_000)])),
          props: { identificatie: '2138', status: 'Woonplaats aangewezen', woonplaats: 'Delft' },
        },
      ],
    });
    return file;
  }

  it('loads the good rows and rejects each bad one naming file, table, fid and why; the run goes on', async () => {
    const file = withBadRows('bad-rows');
    const p = ownPrefix('badrows');
    const result = await run(manifest('bad-rows', file), p);
    expect(result.ok).toBe(true);
    expect(result.levels.addresses).toMatchObject({
      read: 605,
      rejected: 5,
      indexed: 600,
      rejectReasons: { invalid_geometry: 5 },
    });
    expect(result.levels.cities).toMatchObject({ read: 1, indexed: 1, rejected: 0 });
    expect((await client.count({ index: aliasName(p, 'addresses') })).count).toBe(600);
    const rejects = readFileSync(join(tmp, `${p}rejects.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects.map((r) => [r.source.endsWith('gpkg-bad-rows/bag-light.gpkg'), r.table, r.fid, r.reason])).toEqual([
      [true, 'verblijfsobject', 301, 'invalid_geometry'],
      [true, 'verblijfsobject', 302, 'invalid_geometry'],
      [true, 'verblijfsobject', 303, 'invalid_geometry'],
      [true, 'standplaats', 1, 'invalid_geometry'],
      [true, 'ligplaats', 1, 'invalid_geometry'],
    ]);
    expect(rejects.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^verblijfsobject fid 301: WKB ends before its geometry does/),
      expect.stringMatching(/^verblijfsobject fid 302: not a GeoPackage geometry blob/),
      'verblijfsobject fid 303: WKB nested deeper than 32 levels',
      'standplaats fid 1: the Polygon has no rings',
      'ligplaats fid 1: ring 0 of the Polygon has 3 positions, a closed ring needs at least 4',
    ]);
    expect(rejects[0].record).toMatchObject({ bag_table: 'verblijfsobject', huisnummer: '301' });
  });

  it('fails as for CSV when the bad rows pass the reject ratio: nothing swapped', async () => {
    const m = manifest('bad-rows-strict', withBadRows('bad-rows-strict'));
    const p = ownPrefix('badrowsstrict');
    await createLiveGeneration(client, p, EARLIER);
    const before = await generationIndexesOf(client, p);
    const error = await run(m, p, 0.005).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    expect((error as Error).message).toMatch(/addresses: 5 of 605 records rejected/);
    expect(await aliasTargets(client, p)).toEqual(
      Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, EARLIER)]])),
    );
    expect(await generationIndexesOf(client, p)).toEqual(before);
  });
});
