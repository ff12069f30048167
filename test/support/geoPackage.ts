/**
 * Small BAG GeoPackages written in a test with node:sqlite (OGC 12-128r18: gpkg_spatial_ref_sys, gpkg_contents,
 * gpkg_geometry_columns and the bag-light feature tables with the columns the reader needs), and GeoPackage geometry
 * blobs built byte by byte (the binary header, then little-endian WKB), so a test can put a damaged blob in any row.
 */
import { DatabaseSync } from 'node:sqlite';
import { ADDRESS_COLUMNS } from '../../indexer/sources/bag/bagLayout.js';

/** RD New's definition as PDOK's file declares it (the reader checks the organization and code, not the text). */
const RD_NEW_WKT = 'PROJCS["Amersfoort / RD New",GEOGCS["Amersfoort"],AUTHORITY["EPSG","28992"]]';

/** WKB (little endian) of a 2D point. */
export function wkbPoint(x: number, y: number): Buffer {
  const b = Buffer.alloc(21);
  b[0] = 1;
  b.writeUInt32LE(1, 1);
  b.writeDoubleLE(x, 5);
  b.writeDoubleLE(y, 13);
  return b;
}

/** WKB of a 2D polygon, rings as given (no closing or checking: a test may want them wrong). */
export function wkbPolygon(rings: readonly (readonly [number, number])[][]): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(9);
  head[0] = 1;
  head.writeUInt32LE(3, 1);
  head.writeUInt32LE(rings.length, 5);
  parts.push(head);
  for (const ring of rings) {
    const r = Buffer.alloc(4 + ring.length * 16);
    r.writeUInt32LE(ring.length, 0);
    ring.forEach(([x, y], i) => {
      r.writeDoubleLE(x, 4 + i * 16);
      r.writeDoubleLE(y, 12 + i * 16);
    });
    parts.push(r);
  }
  return Buffer.concat(parts);
}

/** WKB of a GeometryCollection of `members`. */
export function wkbCollection(members: readonly Buffer[]): Buffer {
  const head = Buffer.alloc(9);
  head[0] = 1;
  head.writeUInt32LE(7, 1);
  head.writeUInt32LE(members.length, 5);
  return Buffer.concat([head, ...members]);
}

/** A point inside `depth` GeometryCollections, each holding the next. */
export function wkbNested(depth: number, inner: Buffer = wkbPoint(85_000, 446_000)): Buffer {
  const head = Buffer.alloc(9);
  head[0] = 1;
  head.writeUInt32LE(7, 1);
  head.writeUInt32LE(1, 5);
  const heads = Buffer.alloc(9 * depth);
  for (let i = 0; i < depth; i++) head.copy(heads, 9 * i);
  return Buffer.concat([heads, inner]);
}

/** The GeoPackage binary header (version 0, little endian, no envelope) before `wkb`. */
export function gpkgBlob(srsId: number, wkb: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write('GP', 0, 'latin1');
  header[2] = 0;
  header[3] = 0b0000_0001;
  header.writeInt32LE(srsId, 4);
  return Buffer.concat([header, wkb]);
}

/** A closed square ring of side `size` from (x, y). */
export function square(x: number, y: number, size: number): [number, number][] {
  return [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ];
}

/** One feature row: the fid, the geometry blob (any bytes, or null) and the columns besides them. */
export interface FeatureRow {
  fid: number;
  geom: Uint8Array | null;
  props: Record<string, string | number | null>;
}

export interface BagTables {
  verblijfsobject?: FeatureRow[];
  standplaats?: FeatureRow[];
  ligplaats?: FeatureRow[];
  woonplaats?: FeatureRow[];
}

const COLUMNS: Record<keyof BagTables, string[]> = {
  verblijfsobject: [...ADDRESS_COLUMNS, 'pand_identificatie'],
  standplaats: [...ADDRESS_COLUMNS],
  ligplaats: [...ADDRESS_COLUMNS],
  woonplaats: ['identificatie', 'status', 'woonplaats'],
};
const GEOMETRY_TYPE: Record<keyof BagTables, string> = {
  verblijfsobject: 'POINT',
  standplaats: 'POLYGON',
  ligplaats: 'POLYGON',
  woonplaats: 'MULTIPOLYGON',
};

/**
 * Writes a BAG GeoPackage at `path` with every feature table (empty unless given rows), RD New registered under
 * `rdSrsId` (28992 as PDOK numbers it; a file may number it otherwise), the spec's three default entries besides.
 */
export function writeBagGeoPackage(path: string, tables: BagTables, rdSrsId = 28992): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(`PRAGMA application_id = 0x47504B47; PRAGMA user_version = 10300; BEGIN;
      CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
        organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
        description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
        geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
        CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));`);
    const srs = db.prepare(
      'INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, organization_coordsys_id, definition) VALUES (?, ?, ?, ?, ?)',
    );
    srs.run('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined');
    srs.run('Undefined geographic SRS', 0, 'NONE', 0, 'undefined');
    srs.run('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84"]');
    srs.run('Amersfoort / RD New', rdSrsId, 'EPSG', 28992, RD_NEW_WKT);
    for (const table of Object.keys(COLUMNS) as (keyof BagTables)[]) {
      const columns = COLUMNS[table];
      db.exec(
        `CREATE TABLE ${table} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom BLOB, ${columns.map((c) => `${c} TEXT`).join(', ')})`,
      );
      db.prepare(
        `INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ?)`,
      ).run(table, table, rdSrsId);
      db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, ?, 0, 0)`).run(
        table,
        GEOMETRY_TYPE[table],
        rdSrsId,
      );
      const insert = db.prepare(
        `INSERT INTO ${table} (fid, geom, ${columns.join(', ')}) VALUES (?, ?, ${columns.map(() => '?').join(', ')})`,
      );
      for (const row of tables[table] ?? []) {
        insert.run(row.fid, row.geom, ...columns.map((c) => row.props[c] ?? null));
      }
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** A kept verblijfsobject's columns: `n` makes the ids and the house number. */
export function addressProps(n: number, street = 'Testweg'): Record<string, string> {
  return {
    identificatie: `05030100${String(n).padStart(8, '0')}`,
    status: 'Verblijfsobject in gebruik',
    openbare_ruimte_naam: street,
    huisnummer: String(n),
    postcode: '2611AA',
    woonplaats_naam: 'Delft',
    nummeraanduiding_hoofdadres_identificatie: `05032000${String(n).padStart(8, '0')}`,
  };
}
