/**
 * The BAG GeoPackage reader on the fixture (data/fixtures/bag, made by scripts/fixtures/makeBagFixture.ts from real
 * Delft rows): positions against GDAL's own transformation, statuses kept and skipped, the BAG ids as text, and
 * files that are not a BAG GeoPackage refused naming the file, the table and what is missing; GeoPackages written here
 * (test/support/geoPackage.ts) with damaged rows among good ones: each bad row rejected with its table and fid.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Point } from 'geojson';
import { describe, expect, it } from 'vitest';
import { bagId, ADDRESS_STATUSES_KEPT } from '../../../../../indexer/sources/bag/bagLayout.js';
import { statusFilter } from '../../../../../indexer/sources/statuses.js';
import { bagProblems, readBagAddresses, readBagCities } from '../../../../../indexer/sources/bag/readBag.js';
import { rdToWgs84 } from '../../../../../indexer/sources/bag/rdNew.js';
import { parseGeometryBlob } from '../../../../../indexer/sources/gpkg/geometryBlob.js';
import { sqliteHeaderProblem } from '../../../../../indexer/sources/gpkg/geopackage.js';
import type { ReadStats, SourceItem } from '../../../../../indexer/sources/types.js';
import { classifyItem } from '../../../../../indexer/transform/sourceItems.js';
import { validateManifest } from '../../../../../indexer/commands/validate.js';
import {
  addressProps,
  type FeatureRow,
  gpkgBlob,
  square,
  wkbCollection,
  wkbNested,
  wkbPoint,
  wkbPolygon,
  writeBagGeoPackage,
} from '../../../../support/geoPackage.js';

const FIXTURE = 'data/fixtures/bag/bag-light.gpkg';
const GDAL = JSON.parse(readFileSync('data/fixtures/bag/gdal_positions.json', 'utf8')) as {
  table: string;
  identificatie: string;
  rd: [number, number];
  wgs84: [number, number];
}[];

/** Metres between two WGS84 positions (equirectangular: exact enough below a kilometre). */
function metres(a: readonly number[], b: readonly number[]): number {
  const lat = (((a[1] as number) + (b[1] as number)) / 2) * (Math.PI / 180);
  const dx = ((a[0] as number) - (b[0] as number)) * 111_320 * Math.cos(lat);
  const dy = ((a[1] as number) - (b[1] as number)) * 110_574;
  return Math.hypot(dx, dy);
}

async function all(items: AsyncGenerator<SourceItem>): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function copyOf(change: (db: DatabaseSync) => void): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bag-')), 'bag-light.gpkg');
  copyFileSync(FIXTURE, file);
  const db = new DatabaseSync(file);
  change(db);
  db.close();
  return file;
}

describe('RD New to WGS84 (proj4, EPSG:28992 with its datum shift)', () => {
  it('puts every fixture point and vertex within 1 m of where GDAL puts it', () => {
    expect(GDAL.length).toBeGreaterThan(500);
    const worst = Math.max(...GDAL.map((p) => metres(rdToWgs84(p.rd), p.wgs84)));
    expect(worst).toBeLessThan(1);
    // Reported in the fixture README: the two are the same Helmert transformation, so far below a metre.
    expect(worst).toBeLessThan(0.01);
  });
});

describe('readBagAddresses', () => {
  it('reads every address table, keeps the existing objects and counts every status', async () => {
    const stats: ReadStats = { encoding: '' };
    const items = await all(readBagAddresses(FIXTURE, { stats }));
    expect(items).toHaveLength(320 + 3 + 4);
    const kept = items.filter((i) => !i.skip);
    expect(stats.statuses?.skipped).toEqual({
      'Verblijfsobject ingetrokken': 2,
      'Niet gerealiseerd verblijfsobject': 1,
      'Verblijfsobject ten onrechte opgevoerd': 1,
      'Plaats ingetrokken': 1,
    });
    expect(stats.statuses?.kept).toMatchObject({ 'Verblijfsobject gevormd': 1, 'Plaats aangewezen': 6 });
    expect(kept).toHaveLength(327 - 5);
    const tables = new Set(kept.map((i) => i.props.bag_table));
    expect([...tables]).toEqual(['verblijfsobject', 'standplaats', 'ligplaats']);
  });

  it('places each verblijfsobject within 1 m of GDAL, and standplaats and ligplaats inside their outline', async () => {
    const items = (await all(readBagAddresses(FIXTURE))).filter((i) => !i.skip);
    const gdal = new Map(GDAL.filter((p) => p.table === 'verblijfsobject').map((p) => [p.identificatie, p.wgs84]));
    let checked = 0;
    for (const item of items) {
      const at = (item.geometry as Point).coordinates;
      const id = item.props.verblijfsobject_identificatie as string | undefined;
      if (id) {
        expect(metres(at, gdal.get(id) as number[])).toBeLessThan(1);
        checked++;
        continue;
      }
      const table = item.props.bag_table as string;
      const outline = GDAL.filter((p) => p.table === table && p.identificatie === item.props[`${table}_identificatie`]);
      const lons = outline.map((p) => p.wgs84[0]);
      const lats = outline.map((p) => p.wgs84[1]);
      expect(at[0]).toBeGreaterThan(Math.min(...lons));
      expect(at[0]).toBeLessThan(Math.max(...lons));
      expect(at[1]).toBeGreaterThan(Math.min(...lats));
      expect(at[1]).toBeLessThan(Math.max(...lats));
    }
    expect(checked).toBe(320 - 4);
  });

  it("hands on each row's address columns as text, with its table's own id and the verblijfsobject's pand", async () => {
    const items = await all(readBagAddresses(FIXTURE));
    const props = (table: string, id: string) => items.find((i) => i.props[`${table}_identificatie`] === id)?.props;
    expect(props('verblijfsobject', '0503010000000032')).toStrictEqual({
      bag_table: 'verblijfsobject',
      status: 'Verblijfsobject in gebruik',
      openbare_ruimte_naam: 'Vulcanusweg',
      huisnummer: '259',
      huisletter: 'A',
      toevoeging: '',
      postcode: '2624AV',
      woonplaats_naam: 'Delft',
      nummeraanduiding_hoofdadres_identificatie: '0503200000000032',
      verblijfsobject_identificatie: '0503010000000032',
      pand_identificatie: '0503100000013887',
    });
    expect(props('verblijfsobject', '0503010000000065')).toMatchObject({ huisletter: '', toevoeging: 'II' });
    expect(props('standplaats', '0503030000000001')).toStrictEqual({
      bag_table: 'standplaats',
      status: 'Plaats aangewezen',
      openbare_ruimte_naam: 'Schieweg',
      huisnummer: '15',
      huisletter: 'Z',
      toevoeging: '',
      postcode: '2627AN',
      woonplaats_naam: 'Delft',
      nummeraanduiding_hoofdadres_identificatie: '0503200000000321',
      standplaats_identificatie: '0503030000000001',
    });
  });

  it('keeps the BAG ids as 16-digit text, also from a file that stored them as numbers', () => {
    expect(bagId(503010000000001)).toBe('0503010000000001');
    expect(bagId(' 0503200000000001 ')).toBe('0503200000000001');
    expect(bagId(2138, 4)).toBe('2138');
    expect(bagId(null)).toBe('');
    expect(statusFilter(ADDRESS_STATUSES_KEPT)(' verblijfsobject in GEBRUIK ')).toBe(true);
  });

  it("reports progress as rows read of the tables' row estimates", async () => {
    let progress: { bytesRead: number; totalBytes: number } | undefined;
    await all(readBagAddresses(FIXTURE, { progress: (p) => (progress = p) }));
    expect(progress).toEqual({ bytesRead: 327, totalBytes: 327 });
  });
});

describe('readBagCities', () => {
  it('reads the designated woonplaatsen in WGS84 with their code, not the withdrawn one', async () => {
    const items = await all(readBagCities(FIXTURE));
    const kept = items.filter((i) => !i.skip);
    expect(kept.map((i) => [i.props.identificatie, i.props.woonplaats])).toEqual(
      expect.arrayContaining([
        ['2138', 'Delft'],
        ['1143', 'Delfgauw'],
      ]),
    );
    expect(kept).toHaveLength(2);
    expect(items.find((i) => i.skip)?.props.status).toBe('Woonplaats ingetrokken');
    const first = JSON.stringify(kept[0]?.geometry);
    expect(first).toMatch(/\[4\.3\d+,52\.0\d+\]|\[4\.3\d+,51\.9\d+\]/);
  });
});

describe('a GeoPackage that is not a BAG GeoPackage', () => {
  it('fits as it is', () => {
    expect(bagProblems(FIXTURE, 'addresses')).toEqual([]);
    expect(bagProblems(FIXTURE, 'cities')).toEqual([]);
  });

  it('names the file, the table and the missing table or column', () => {
    const file = copyOf((db) => {
      db.exec('DROP TABLE ligplaats');
      db.exec('ALTER TABLE verblijfsobject DROP COLUMN nummeraanduiding_hoofdadres_identificatie');
    });
    const problems = bagProblems(file, 'addresses');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(
      `${file}, table verblijfsobject: column nummeraanduiding_hoofdadres_identificatie missing`,
    );
    expect(problems[1]).toContain(`${file}, table ligplaats: missing; the file's tables:`);
  });

  it('reads a woonplaats name column called naam; names the table when it has none', async () => {
    const renamed = copyOf((db) => db.exec('ALTER TABLE woonplaats RENAME COLUMN woonplaats TO naam'));
    const names = (await all(readBagCities(renamed))).filter((i) => !i.skip).map((i) => i.props.woonplaats);
    expect(names.sort()).toEqual(['Delfgauw', 'Delft']);
    const dropped = copyOf((db) => db.exec('ALTER TABLE woonplaats DROP COLUMN woonplaats'));
    expect(bagProblems(dropped, 'cities')).toEqual([
      expect.stringContaining(
        `${dropped}, table woonplaats: column one of woonplaats / naam / woonplaats_naam missing`,
      ),
    ]);
  });

  it('names another SRS', () => {
    const file = copyOf((db) =>
      db.exec(`UPDATE gpkg_geometry_columns SET srs_id = 4326 WHERE table_name = 'woonplaats'`),
    );
    expect(bagProblems(file, 'cities')).toEqual([
      `${file}, table woonplaats: geometry in EPSG:4326 (srs_id 4326), expected EPSG:28992`,
    ]);
  });

  it('names a truncated file before reading a row, and a file that is not SQLite at all', () => {
    const bytes = readFileSync(FIXTURE);
    const dir = mkdtempSync(join(tmpdir(), 'bag-'));
    writeFileSync(join(dir, 'cut.gpkg'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(bagProblems(join(dir, 'cut.gpkg'), 'addresses')[0]).toMatch(
      /cut\.gpkg: truncated: \d+ bytes, its header says/,
    );
    writeFileSync(join(dir, 'text.gpkg'), 'identificatie,status\n');
    expect(bagProblems(join(dir, 'text.gpkg'), 'addresses')[0]).toContain('not an SQLite database');
    expect(sqliteHeaderProblem(bytes.subarray(0, 100), bytes.length)).toBeUndefined();
  });
});

describe('GeoPackage geometry blobs', () => {
  it('reads a little-endian point with an envelope and a big-endian ISO Z polygon', () => {
    const point = Buffer.alloc(8 + 32 + 21);
    point.write('GP', 0, 'latin1');
    point[3] = 0b0000_0011; // little endian, envelope xy
    point.writeInt32LE(28992, 4);
    point[40] = 1;
    point.writeUInt32LE(1, 41);
    point.writeDoubleLE(85000.5, 45);
    point.writeDoubleLE(446000.25, 53);
    expect(parseGeometryBlob(point)).toEqual({
      srsId: 28992,
      geometry: { type: 'Point', coordinates: [85000.5, 446000.25] },
    });

    const ring = [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 0, 1],
    ];
    const poly = Buffer.alloc(8 + 1 + 4 + 4 + 4 + ring.length * 24);
    poly.write('GP', 0, 'latin1');
    poly[3] = 0; // big endian header, no envelope
    poly.writeInt32BE(28992, 4);
    poly[8] = 0;
    poly.writeUInt32BE(1003, 9);
    poly.writeUInt32BE(1, 13);
    poly.writeUInt32BE(ring.length, 17);
    ring.forEach((p, i) => p.forEach((v, j) => poly.writeDoubleBE(v, 21 + i * 24 + j * 8)));
    expect(parseGeometryBlob(poly).geometry).toEqual({
      type: 'Polygon',
      coordinates: [ring.map((p) => p.slice(0, 2))],
    });
    expect(() => parseGeometryBlob(poly.subarray(0, 30))).toThrow(/beyond the blob|ends before/);
    expect(() => parseGeometryBlob(Buffer.from('nope nope'))).toThrow(/GP/);
  });
});

/** A GeoPackage written in a scratch folder with these rows (RD New under `rdSrsId`). */
function written(tables: Parameters<typeof writeBagGeoPackage>[1], rdSrsId = 28992): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bag-rows-')), 'bag.gpkg');
  writeBagGeoPackage(file, tables, rdSrsId);
  return file;
}

const point = (fid: number, srsId = 28992): FeatureRow => ({
  fid,
  geom: gpkgBlob(srsId, wkbPoint(85_000 + fid, 446_000)),
  props: addressProps(fid),
});
const place = (fid: number, geom: Buffer): FeatureRow => ({
  fid,
  geom,
  props: { ...addressProps(100 + fid), status: 'Plaats aangewezen' },
});
const cut = (blob: Buffer, bytes: number) => blob.subarray(0, blob.length - bytes);
const CITY = { identificatie: '2138', status: 'Woonplaats aangewezen', woonplaats: 'Delft' };

describe('a BAG GeoPackage with bad rows among good ones', () => {
  const rd = (wkb: Buffer) => gpkgBlob(28992, wkb);
  const wrongMagic = rd(wkbPoint(85_000, 446_000));
  wrongMagic.write('XP', 0, 'latin1');
  const file = written({
    verblijfsobject: [
      point(1),
      { ...point(2), geom: cut(rd(wkbPoint(85_000, 446_000)), 3) },
      { ...point(3), geom: wrongMagic },
      { ...point(4), geom: rd(wkbNested(20_000)) },
      point(5, 4326),
      { ...point(6), geom: Buffer.from('GP\0\x01') },
      point(7),
    ],
    standplaats: [place(1, rd(wkbPolygon([square(85_000, 446_000, 10)]))), place(2, rd(wkbPolygon([])))],
    ligplaats: [
      place(3, rd(wkbPolygon([square(85_100, 446_000, 10).slice(0, 3)]))),
      place(4, rd(wkbPolygon([square(85_200, 446_000, 10).slice(0, 4)]))),
      place(5, rd(wkbPolygon([square(85_300, 446_000, 10)]))),
    ],
    woonplaats: [
      { fid: 1, geom: rd(wkbPolygon([square(80_000, 440_000, 10_000)])), props: CITY },
      { fid: 2, geom: cut(rd(wkbPolygon([square(80_000, 440_000, 10_000)])), 8), props: CITY },
    ],
  });

  it('reads the good rows and names the table, fid and fault of each bad one, without stopping', async () => {
    const items = await all(readBagAddresses(file));
    const good = items.filter((i) => !i.invalidGeometry);
    expect(good.map((i) => [i.table, i.fid, i.geometry?.type])).toEqual([
      ['verblijfsobject', 1, 'Point'],
      ['verblijfsobject', 7, 'Point'],
      ['standplaats', 1, 'Point'],
      ['ligplaats', 5, 'Point'],
    ]);
    const bad = items.filter((i) => i.invalidGeometry);
    expect(bad.map((i) => [i.table, i.fid, i.invalidGeometry])).toEqual([
      ['verblijfsobject', 2, expect.stringMatching(/^verblijfsobject fid 2: WKB ends before its geometry does/)],
      ['verblijfsobject', 3, expect.stringMatching(/^verblijfsobject fid 3: not a GeoPackage geometry blob/)],
      ['verblijfsobject', 4, expect.stringMatching(/^verblijfsobject fid 4: WKB nested deeper than 32/)],
      ['verblijfsobject', 5, expect.stringMatching(/^verblijfsobject fid 5: .*srs_id 4326.*srs_id 28992/)],
      ['verblijfsobject', 6, expect.stringMatching(/^verblijfsobject fid 6: .*4 bytes/)],
      ['standplaats', 2, 'standplaats fid 2: the Polygon has no rings'],
      [
        'ligplaats',
        3,
        expect.stringMatching(/^ligplaats fid 3: ring 0 .* 3 positions, a closed ring needs at least 4/),
      ],
      ['ligplaats', 4, expect.stringMatching(/^ligplaats fid 4: ring 0 .* not closed/)],
    ]);
    // Each is a reject of its own (not a stop, not a record): invalid_geometry, with the props of its row.
    for (const item of bad) {
      expect(classifyItem(item, { filter: [], multilineFields: undefined })).toEqual({
        kind: 'rejected',
        weight: 1,
        rejection: { reason: 'invalid_geometry', detail: item.invalidGeometry },
      });
      expect(item.props.huisnummer).toBe(
        String(item.table === 'verblijfsobject' ? item.fid : 100 + (item.fid as number)),
      );
    }
  });

  it('a woonplaats whose blob is cut short is one bad row; the good one is read', async () => {
    const items = await all(readBagCities(file));
    expect(items.map((i) => [i.fid, i.geometry?.type ?? i.invalidGeometry])).toEqual([
      [1, 'Polygon'],
      [2, expect.stringMatching(/^woonplaats fid 2: WKB ends before its geometry does/)],
    ]);
  });

  it('validate counts them as rejects with the table and fid, and fails only above the reject ratio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bag-validate-'));
    const manifest = join(dir, 'manifest.json');
    const m = { levels: { addresses: [{ file, format: 'bag-gpkg' }] } };
    writeFileSync(manifest, JSON.stringify(m));
    const strict = await validateManifest(manifest, { maxRejectRatio: 0.01 });
    const report = strict.levels.addresses?.[0];
    expect(report).toMatchObject({ read: 12, rejected: 8, rejects: { invalid_geometry: { count: 8 } } });
    expect(report?.error).toBeUndefined();
    expect(report?.rejects.invalid_geometry?.samples[0]).toMatchObject({
      table: 'verblijfsobject',
      fid: 2,
      detail: expect.stringContaining('WKB ends before'),
    });
    expect(strict.ok).toBe(false);
    expect(strict.problems).toEqual([expect.stringMatching(/^addresses: 8 of 12 records rejected/)]);
    expect((await validateManifest(manifest, { maxRejectRatio: 0.7 })).ok).toBe(true);
  });

  it('caps nesting at 32 levels: 32 collections deep is read, 33 is refused', () => {
    expect(parseGeometryBlob(gpkgBlob(28992, wkbNested(32))).geometry?.type).toBe('GeometryCollection');
    expect(() => parseGeometryBlob(gpkgBlob(28992, wkbNested(33)))).toThrow(/nested deeper than 32/);
    expect(() => parseGeometryBlob(gpkgBlob(28992, wkbCollection([wkbNested(33)])))).toThrow(/nested deeper/);
  });
});

describe('a BAG GeoPackage numbering RD New other than 28992', () => {
  it("reads every row whose blob carries the table's srs_id, and rejects one that carries another", async () => {
    const file = written(
      {
        verblijfsobject: [point(1, 1), point(2, 1), point(3, 28992)],
        woonplaats: [{ fid: 1, geom: gpkgBlob(1, wkbPolygon([square(80_000, 440_000, 10_000)])), props: CITY }],
      },
      1,
    );
    expect(bagProblems(file, 'addresses')).toEqual([]);
    const items = await all(readBagAddresses(file));
    expect(items.map((i) => [i.fid, i.geometry?.type ?? i.invalidGeometry])).toEqual([
      [1, 'Point'],
      [2, 'Point'],
      [3, expect.stringMatching(/^verblijfsobject fid 3: its blob says srs_id 28992, the table's is srs_id 1/)],
    ]);
    const at = (items[0]?.geometry as Point).coordinates;
    expect(metres(at, rdToWgs84([85_001, 446_000]))).toBe(0);
    expect((await all(readBagCities(file))).map((i) => i.geometry?.type)).toEqual(['Polygon']);
  });
});
