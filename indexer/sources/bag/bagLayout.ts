/**
 * The BAG GeoPackage as PDOK publishes it (`bag-light.gpkg`, EPSG:28992): the tables and columns the readers need,
 * which statuses are read, and how an identifier is written (pure). Written from PDOK's published layout: five
 * feature tables, `woonplaats`, `pand`, `verblijfsobject`, `standplaats`, `ligplaats`, with each address's
 * nummeraanduiding flattened onto its object's row (there is no nummeraanduiding or openbare_ruimte table).
 */
import type { TableNeeds } from '../gpkg/geopackage.js';

export const RD_NEW = 28992;

/** Columns every addressable object table has (verblijfsobject, standplaats, ligplaats). */
export const ADDRESS_COLUMNS = [
  'identificatie',
  'status',
  'openbare_ruimte_naam',
  'huisnummer',
  'huisletter',
  'toevoeging',
  'postcode',
  'woonplaats_naam',
  'nummeraanduiding_hoofdadres_identificatie',
] as const;

export type AddressTable = 'verblijfsobject' | 'standplaats' | 'ligplaats';

/** The address tables in reading order; verblijfsobject also names the pand (building) it lies in. */
export const ADDRESS_TABLES: readonly (TableNeeds & { table: AddressTable })[] = [
  { table: 'verblijfsobject', columns: [...ADDRESS_COLUMNS, 'pand_identificatie'], epsg: RD_NEW },
  { table: 'standplaats', columns: ADDRESS_COLUMNS, epsg: RD_NEW },
  { table: 'ligplaats', columns: ADDRESS_COLUMNS, epsg: RD_NEW },
];

/**
 * Where a woonplaats's name is: `woonplaats` in PDOK's bag-light; the BAG's own attribute name `naam` and the
 * address tables' `woonplaats_naam` are accepted too (the first one present is read).
 */
export const CITY_NAME_COLUMNS = ['woonplaats', 'naam', 'woonplaats_naam'] as const;

/** `woonplaats`: the BAG's own places, coded by `identificatie` (4 digits). */
export const CITY_TABLE: TableNeeds = {
  table: 'woonplaats',
  columns: ['identificatie', 'status'],
  anyOf: [CITY_NAME_COLUMNS],
  epsg: RD_NEW,
};

/**
 * Addresses read by default: those whose object exists or is being built, as PDOK's Locatieserver serves them (an
 * address is searchable from the moment its object is formed, `gevormd`: new builds need to be found by deliveries
 * and movers; an object out of use or being rebuilt keeps its address). Never the withdrawn, the never-realised or
 * the registered-in-error (`Verblijfsobject ingetrokken`, `Niet gerealiseerd verblijfsobject`, `Verblijfsobject ten
 * onrechte opgevoerd`, `Plaats ingetrokken`): their address does not exist. Any other status is skipped too, and
 * counted under its own name in the summary (a status list of a later BAG version shows there, never silently).
 */
export const ADDRESS_STATUSES_KEPT = [
  'Verblijfsobject in gebruik',
  'Verblijfsobject in gebruik (niet ingemeten)',
  'Verbouwing verblijfsobject',
  'Verblijfsobject buiten gebruik',
  'Verblijfsobject gevormd',
  'Plaats aangewezen',
] as const;

/** Woonplaatsen read by default: designated ones (`Woonplaats ingetrokken` is skipped). */
export const CITY_STATUSES_KEPT = ['Woonplaats aangewezen'] as const;

/**
 * A BAG identifier as text: SQLite may hand back an INTEGER (a file that stored ids as numbers lost their leading
 * zeros), so digits-only values are padded back to the BAG's width (16 for objects, 4 for woonplaatsen).
 */
export function bagId(value: unknown, width: 16 | 4 = 16): string {
  if (value === null || value === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- SQLite's INTEGER/TEXT values, as text
  const text = typeof value === 'bigint' || typeof value === 'number' ? String(value) : String(value).trim();
  return /^[0-9]+$/.test(text) ? text.padStart(width, '0') : text;
}

/** Any column value as trimmed text ('' for NULL). */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- SQLite's INTEGER/TEXT values, as text
  return String(value).trim();
}
