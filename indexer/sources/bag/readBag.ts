/**
 * Reads the BAG GeoPackage as published: addresses from verblijfsobject (points), standplaats and ligplaats
 * (polygons: a point inside each), cities from woonplaats; RD New to WGS84 on the way; status filtering per
 * bagLayout.ts. One row in memory at a time (a statement iterator per table); progress counts rows against the
 * tables' row estimates. A row whose geometry cannot be read (a damaged blob, one in another SRS, a polygon without
 * rings) is handed on as an item with `invalidGeometry` naming its table and fid, to be rejected like any bad row;
 * only what is wrong with the file (a table, a column, the SRS, an unreadable page) stops the read.
 */
import type { Geometry } from 'geojson';
import { pointOnSurface } from '../../geometry/checks.js';
import { columnPositions, GEOMETRY, GeoPackage, ROWID } from '../gpkg/geopackage.js';
import { GeometryBlobError, parseGeometryBlob } from '../gpkg/geometryBlob.js';
import { geometryShapeProblem } from '../gpkg/geometryShape.js';
import { type ReadOptions, SourceFileError, type SourceItem } from '../types.js';
import {
  ADDRESS_COLUMNS,
  ADDRESS_STATUSES_KEPT,
  ADDRESS_TABLES,
  bagId,
  CITY_NAME_COLUMNS,
  CITY_STATUSES_KEPT,
  CITY_TABLE,
  RD_NEW,
  text,
} from './bagLayout.js';
import { countStatus, statusFilter } from '../statuses.js';
import { geometryToWgs84, rdToWgs84 } from './rdNew.js';

export interface BagReadOptions extends ReadOptions {
  /** Statuses to read instead of the defaults. */
  keep?: readonly string[] | undefined;
}

/** Every way the file is not a BAG GeoPackage for this level (empty: it is), each naming file, table and what. */
export function bagProblems(path: string, level: 'addresses' | 'cities'): string[] {
  let gpkg: GeoPackage | undefined;
  try {
    gpkg = GeoPackage.open(path);
    return gpkg.problems(level === 'cities' ? [CITY_TABLE] : ADDRESS_TABLES);
  } catch (error) {
    return [(error as Error).message];
  } finally {
    gpkg?.close();
  }
}

function openChecked(path: string, level: 'addresses' | 'cities'): GeoPackage {
  const gpkg = GeoPackage.open(path);
  const problems = gpkg.problems(level === 'cities' ? [CITY_TABLE] : ADDRESS_TABLES);
  if (problems.length) {
    gpkg.close();
    throw new SourceFileError(path, problems.join('; '));
  }
  return gpkg;
}

/**
 * The blob's geometry, checked to carry the table's srs_id (the file's own key of its EPSG:28992 entry, whatever its
 * number; 0, "undefined", is taken as the table's) and to have a usable shape. A row in another SRS is refused, not
 * placed far off. Throws for a fault of the row.
 */
function rdGeometry(srsId: number, row: unknown[]): Geometry | null {
  const blob = parseGeometryBlob(row[GEOMETRY] as Uint8Array | null);
  const geometry = blob.geometry;
  if (!geometry) return null;
  if (blob.srsId !== srsId && blob.srsId !== 0) {
    throw new GeometryBlobError(`its blob says srs_id ${blob.srsId}, the table's is srs_id ${srsId} (EPSG:${RD_NEW})`);
  }
  const problem = geometryShapeProblem(geometry);
  if (problem) throw new GeometryBlobError(problem);
  return geometry;
}

/** Why a row's geometry cannot be read, naming its table and fid (any error there comes from the row's blob alone). */
function rowFault(table: string, row: unknown[], error: unknown): string {
  return `${table} fid ${String(row[ROWID])}: ${error instanceof Error ? error.message : String(error)}`;
}

const toWgs84 = (geometry: Geometry | null) => geometry && geometryToWgs84(geometry);

/** An addressable object's position: the point itself, or a point inside its polygon; in WGS84. */
function addressPoint(geometry: Geometry | null): Geometry | null {
  if (!geometry) return null;
  if (geometry.type === 'Point') return { type: 'Point', coordinates: rdToWgs84(geometry.coordinates) };
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    return { type: 'Point', coordinates: rdToWgs84(pointOnSurface(geometry)) };
  }
  return geometryToWgs84(geometry);
}

/** A row's status, whether it is read, counted in the summary and the progress. */
function counted(
  value: unknown,
  position: number,
  progress: { bytesRead: number },
  keep: (status: string) => boolean,
  options: BagReadOptions,
): { status: string; kept: boolean } {
  progress.bytesRead = position;
  const status = text(value);
  const kept = keep(status);
  countStatus(options.stats, kept, status);
  return { status, kept };
}

// eslint-disable-next-line @typescript-eslint/require-await -- SQLite reads synchronously; the readers' contract is async
export async function* readBagAddresses(path: string, options: BagReadOptions = {}): AsyncGenerator<SourceItem> {
  const gpkg = openChecked(path, 'addresses');
  const keep = statusFilter(options.keep ?? ADDRESS_STATUSES_KEPT);
  try {
    const tables = ADDRESS_TABLES.map((t) => ({ ...gpkg.table(t.table), ...t }));
    const progress = { bytesRead: 0, totalBytes: tables.reduce((n, t) => n + t.rowEstimate, 0) };
    options.progress?.(progress);
    if (options.stats) options.stats.encoding = 'UTF-8';
    let position = 0;
    for (const t of tables) {
      const at = columnPositions(t.columns, [...ADDRESS_COLUMNS, 'pand_identificatie']);
      const idKey = `${t.table}_identificatie`;
      for (const row of gpkg.rows(t.table, t.geometryColumn, t.columns)) {
        const { status, kept } = counted(row[at.status], ++position, progress, keep, options);
        // One literal, then the table's own keys in the same order every row: objects of one shape, fast to read.
        const props: Record<string, unknown> = {
          bag_table: t.table,
          status,
          openbare_ruimte_naam: text(row[at.openbare_ruimte_naam]),
          huisnummer: text(row[at.huisnummer]),
          huisletter: text(row[at.huisletter]),
          toevoeging: text(row[at.toevoeging]),
          postcode: text(row[at.postcode]),
          woonplaats_naam: text(row[at.woonplaats_naam]),
          nummeraanduiding_hoofdadres_identificatie: bagId(row[at.nummeraanduiding_hoofdadres_identificatie]),
        };
        props[idKey] = bagId(row[at.identificatie]);
        if (t.table === 'verblijfsobject') props.pand_identificatie = bagId(row[at.pand_identificatie]);
        if (!kept) {
          yield { position, props, skip: true };
          continue;
        }
        const fid = Number(row[ROWID]);
        let geometry: Geometry | null;
        try {
          geometry = addressPoint(rdGeometry(t.srsId, row));
        } catch (error) {
          yield { position, props, table: t.table, fid, invalidGeometry: rowFault(t.table, row, error) };
          continue;
        }
        yield { position, props, geometry, table: t.table, fid };
      }
    }
  } finally {
    gpkg.close();
  }
}

// eslint-disable-next-line @typescript-eslint/require-await -- SQLite reads synchronously; the readers' contract is async
export async function* readBagCities(path: string, options: BagReadOptions = {}): AsyncGenerator<SourceItem> {
  const gpkg = openChecked(path, 'cities');
  const keep = statusFilter(options.keep ?? CITY_STATUSES_KEPT);
  try {
    const table = gpkg.table(CITY_TABLE.table);
    const nameColumn = CITY_NAME_COLUMNS.find((c) => table.columns.has(c)) as (typeof CITY_NAME_COLUMNS)[number];
    const t = { ...CITY_TABLE, ...table, columns: [...CITY_TABLE.columns, nameColumn] };
    const progress = { bytesRead: 0, totalBytes: t.rowEstimate };
    options.progress?.(progress);
    if (options.stats) options.stats.encoding = 'UTF-8';
    let position = 0;
    const at = columnPositions(t.columns, ['identificatie', 'status', nameColumn]);
    for (const row of gpkg.rows(t.table, t.geometryColumn, t.columns)) {
      const { status, kept } = counted(row[at.status], ++position, progress, keep, options);
      const props = { identificatie: bagId(row[at.identificatie], 4), woonplaats: text(row[at[nameColumn]]), status };
      if (!kept) {
        yield { position, props, skip: true };
        continue;
      }
      const fid = Number(row[ROWID]);
      let geometry: Geometry | null;
      try {
        geometry = toWgs84(rdGeometry(t.srsId, row));
      } catch (error) {
        yield { position, props, table: t.table, fid, invalidGeometry: rowFault(t.table, row, error) };
        continue;
      }
      yield { position, props, geometry, table: t.table, fid };
    }
  } finally {
    gpkg.close();
  }
}
