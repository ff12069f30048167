/**
 * A GeoPackage (OGC 12-128r18: SQLite with `gpkg_contents`, `gpkg_geometry_columns`, `gpkg_spatial_ref_sys`) read
 * through Node's own `node:sqlite`, read-only: its layout checked against what a reader needs before anything is
 * read, and a table's rows streamed through a statement iterator (one row in memory at a time, whatever the size).
 */
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SourceFileError } from '../types.js';

/** A feature table a reader needs: its columns (besides the geometry) and the SRS its geometry must be in. */
export interface TableNeeds {
  table: string;
  columns: readonly string[];
  /** Groups of which at least one column must exist (a column a release may name differently). */
  anyOf?: readonly (readonly string[])[];
  /** EPSG code of the geometry column's SRS. */
  epsg: number;
}

export interface GeoPackageTable {
  geometryColumn: string;
  /**
   * The geometry column's srs_id (gpkg_geometry_columns): the key of its gpkg_spatial_ref_sys entry, whatever number
   * the file gives it (`problems` checked that entry is the EPSG code needed). Every blob of the table must carry it.
   */
  srsId: number;
  /** Every column the table has. */
  columns: ReadonlySet<string>;
  /** Rows expected: the table's largest rowid (a feature table's fid), found without a scan; for progress only. */
  rowEstimate: number;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * What the SQLite header (first 100 bytes) says about the file: not SQLite at all, or cut short (the header's page
 * count times its page size beyond the file's length: a partial download). Undefined when it looks whole.
 */
export function sqliteHeaderProblem(header: Uint8Array, fileSize: number): string | undefined {
  if (header.length < 100 || Buffer.from(header.subarray(0, 16)).toString('latin1') !== SQLITE_MAGIC) {
    return 'not an SQLite database (a GeoPackage is one)';
  }
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pageCount = view.getUint32(28);
  // The in-header page count is valid only when "version-valid-for" equals the change counter (SQLite file format §1.3).
  if (pageCount === 0 || view.getUint32(92) !== view.getUint32(24)) return undefined;
  const expected = pageCount * pageSize;
  if (fileSize < expected) {
    return `truncated: ${fileSize} bytes, its header says ${expected} (${pageCount} pages of ${pageSize}); download it again`;
  }
  return undefined;
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export class GeoPackage {
  private readonly db: DatabaseSync;

  private constructor(
    readonly path: string,
    db: DatabaseSync,
  ) {
    this.db = db;
  }

  /** Opens read-only after checking the SQLite header; throws a SourceFileError naming the file. */
  static open(path: string): GeoPackage {
    const header = new Uint8Array(100);
    const fd = openSync(path, 'r');
    let size: number;
    try {
      readSync(fd, header, 0, 100, 0);
      size = statSync(path).size;
    } finally {
      closeSync(fd);
    }
    const problem = sqliteHeaderProblem(header, size);
    if (problem) throw new SourceFileError(path, `${path}: ${problem}`);
    try {
      return new GeoPackage(path, new DatabaseSync(path, { readOnly: true }));
    } catch (error) {
      throw new SourceFileError(path, `${path}: cannot be opened as SQLite: ${(error as Error).message}`);
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private all(sql: string, ...params: (string | number)[]): Record<string, unknown>[] {
    try {
      return this.db.prepare(sql).all(...params);
    } catch (error) {
      throw new SourceFileError(this.path, `${this.path}: ${(error as Error).message} (in ${sql.split(' FROM ')[1]})`);
    }
  }

  /**
   * Every way the file falls short of `needs`, one line each naming the file, the table and what is missing (empty:
   * it fits).
   */
  problems(needs: readonly TableNeeds[]): string[] {
    const has = (t: string) => this.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, t).length;
    if (!has('gpkg_contents') || !has('gpkg_geometry_columns') || !has('gpkg_spatial_ref_sys')) {
      return [`${this.path}: not a GeoPackage (no gpkg_contents, gpkg_geometry_columns or gpkg_spatial_ref_sys table)`];
    }
    const problems: string[] = [];
    for (const need of needs) {
      const where = `${this.path}, table ${need.table}`;
      if (!has(need.table)) {
        const tables = this.all(`SELECT table_name FROM gpkg_contents ORDER BY table_name`).map((r) => r.table_name);
        problems.push(`${where}: missing; the file's tables: ${tables.join(', ') || '(none)'}`);
        continue;
      }
      const geometry = this.all(
        `SELECT g.column_name, g.srs_id, s.organization, s.organization_coordsys_id FROM gpkg_geometry_columns g ` +
          `LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id WHERE g.table_name = ?`,
        need.table,
      )[0];
      if (!geometry) problems.push(`${where}: no geometry column in gpkg_geometry_columns`);
      else {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- SQLite's TEXT/INTEGER values, as text
        const org = String(geometry.organization ?? '').toUpperCase();
        const code = Number(geometry.organization_coordsys_id);
        if (org !== 'EPSG' || code !== need.epsg) {
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- SQLite's TEXT/INTEGER values, as text
          const found = geometry.organization ? `${String(geometry.organization)}:${code}` : 'an unknown SRS';
          problems.push(
            `${where}: geometry in ${found} (srs_id ${String(geometry.srs_id)}), expected EPSG:${need.epsg}`,
          );
        }
      }
      const columns = new Set(this.all(`PRAGMA table_info(${quoted(need.table)})`).map((r) => String(r.name)));
      const missing = need.columns.filter((c) => !columns.has(c));
      for (const group of need.anyOf ?? []) {
        if (!group.some((c) => columns.has(c))) missing.push(`one of ${group.join(' / ')}`);
      }
      if (missing.length) {
        problems.push(
          `${where}: column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing; its columns: ${[...columns].join(', ')}`,
        );
      }
    }
    return problems;
  }

  /** The geometry column and the row estimate of a table that passed `problems`. */
  table(name: string): GeoPackageTable {
    const row = this.all(`SELECT column_name, srs_id FROM gpkg_geometry_columns WHERE table_name = ?`, name)[0];
    const max = this.all(`SELECT max(rowid) AS n FROM ${quoted(name)}`)[0];
    const columns = new Set(this.all(`PRAGMA table_info(${quoted(name)})`).map((r) => String(r.name)));
    return {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- SQLite's TEXT/INTEGER values, as text
      geometryColumn: String(row?.column_name ?? 'geom'),
      srsId: Number(row?.srs_id),
      columns,
      rowEstimate: Number(max?.n ?? 0),
    };
  }

  /**
   * The rows of `table`, one at a time, each an array: its rowid, the geometry blob, then `columns` in that order.
   * Arrays, not objects: node:sqlite makes each row object in dictionary mode, slower to build and to read (about a
   * fifth of this loop's CPU on a national verblijfsobject table). A read error (a damaged page) becomes a
   * SourceFileError naming the file, the table and the last rowid read.
   */
  *rows(table: string, geometryColumn: string, columns: readonly string[]): Generator<unknown[]> {
    const list = [`rowid`, quoted(geometryColumn), ...columns.map(quoted)].join(', ');
    let statement: StatementSync;
    let last = 0;
    try {
      statement = this.db.prepare(`SELECT ${list} FROM ${quoted(table)} ORDER BY rowid`);
      statement.setReturnArrays(true);
      for (const row of statement.iterate() as Iterable<unknown[]>) {
        last = Number(row[0]);
        yield row;
      }
    } catch (error) {
      throw new SourceFileError(
        this.path,
        `${this.path}, table ${table}: ${(error as Error).message} after rowid ${last}; the file is damaged or truncated`,
      );
    }
  }
}

/**
 * Where each of `names` is in a row GeoPackage.rows gave for `columns` (after the rowid and the geometry); -1 for a
 * name not among them (a row's value there reads as undefined).
 */
export function columnPositions<N extends string>(columns: readonly string[], names: readonly N[]): Record<N, number> {
  return Object.fromEntries(names.map((n) => [n, columns.indexOf(n) === -1 ? -1 : columns.indexOf(n) + 2])) as Record<
    N,
    number
  >;
}

/** A row's rowid and geometry blob (GeoPackage.rows puts them first). */
export const ROWID = 0;
export const GEOMETRY = 1;
