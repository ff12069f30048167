/**
 * OpenAddresses as published: the CSV (`LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH`) and the
 * GeoJSON-lines form of the batch service (one Feature per line, Point geometry, lower-case properties `hash`,
 * `number`, `street`, `unit`, `city`, `district`, `region`, `postcode`, `id`). Either way the records carry the same
 * lower-case properties and `lon`/`lat`; column names compare case-insensitively. The form is told by the name:
 * `.geojson`, `.geojsonl`, `.geojsonseq` (optionally `.gz`) are GeoJSON lines, anything else CSV.
 */
import { readCsv, readCsvHeader } from '../csv.js';
import { readGeoJsonSeq } from '../geojson.js';
import { type ReadOptions, type SourceItem } from '../types.js';

export const OPENADDRESSES_COLUMNS = [
  'lon',
  'lat',
  'number',
  'street',
  'unit',
  'city',
  'district',
  'region',
  'postcode',
  'id',
  'hash',
] as const;
/** Columns without which a file is not OpenAddresses (UNIT, DISTRICT, REGION, ID and HASH may be empty or absent). */
const REQUIRED = ['lon', 'lat', 'number', 'street'] as const;

export function isGeoJsonLines(path: string): boolean {
  return /\.(geojson|geojsonl|geojsonseq|ndjson)(\.gz)?$/i.test(path);
}

/** What is wrong with a CSV's header for OpenAddresses (empty: nothing); GeoJSON lines have no header to check. */
export async function openAddressesProblems(path: string): Promise<string[]> {
  if (isGeoJsonLines(path)) return [];
  try {
    const header = await readCsvHeader(path, {});
    const have = new Set(header.map((h) => h.trim().toLowerCase()));
    const missing = REQUIRED.filter((c) => !have.has(c));
    if (!missing.length) return [];
    return [
      `${path}: not an OpenAddresses CSV: ${missing.map((c) => c.toUpperCase()).join(', ')} missing; the file's columns: ${header.join(', ')}`,
    ];
  } catch (error) {
    return [(error as Error).message];
  }
}

function lowerCased(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) out[k.trim().toLowerCase()] = v;
  return out;
}

export async function* readOpenAddresses(path: string, options: ReadOptions = {}): AsyncGenerator<SourceItem> {
  if (!isGeoJsonLines(path)) {
    for await (const item of readCsv(path, { ...options, delimiter: ',' })) {
      yield item.error ? item : { ...item, props: lowerCased(item.props) };
    }
    return;
  }
  for await (const item of readGeoJsonSeq(path, options)) {
    if (item.error) {
      yield item;
      continue;
    }
    const props = lowerCased(item.props);
    const point = item.geometry?.type === 'Point' ? item.geometry.coordinates : undefined;
    if (point) {
      props.lon = point[0];
      props.lat = point[1];
    }
    // The position is in lon/lat: the geometry is not handed on (a non-point geometry leaves them empty: a reject).
    yield { position: item.position, props };
  }
}
