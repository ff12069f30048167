/**
 * Builds data/sample/be/brussels_addresses_slice.csv: rows of ../shared/data/bulk/addresses-be-brussel.csv.gz (UrbIS
 * via BeST Address), unchanged and in the bulk file's order, chosen by what the sample's tests and a first
 * `npm start` ask for:
 *
 * - Elsene's streets starting with I, N or O, and Elizastraat (several languages, box numbers, one municipality);
 * - Brussel's Nieuwstraat / Rue Neuve and Wetstraat / Rue de la Loi, whole;
 * - every address of the centre of Brussels between the Grand-Place and the start of the Rue de la Loi
 *   (longitude 4.3510-4.3675, latitude 50.8445-50.8485: Grote Markt, the Galeries, the Kunstberg, the Park).
 *
 * The French street names are not written here: the sample manifest joins them from data/sample/be/
 * brussels_streets_fr_nl.csv (OpenStreetMap), which lists every Brussels street.
 *
 *   npx tsx scripts/sample/makeBrusselsSlice.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const BULK = '../shared/data/bulk/addresses-be-brussel.csv.gz';
const OUT = 'data/sample/be/brussels_addresses_slice.csv';
const CENTRE = { west: 4.351, east: 4.3675, south: 50.8445, north: 50.8485 };

/** The bulk file has no quoted fields (checked below), so a row is its comma-separated cells. */
const [header, ...lines] = gunzipSync(readFileSync(BULK)).toString('utf8').trimEnd().split('\n');
if (header !== 'id,street,number,letter,addition,postcode,city,lon,lat') throw new Error(`unexpected header ${header}`);

function picked(line: string): boolean {
  if (line.includes('"')) throw new Error(`a quoted row: ${line}`);
  const [, street = '', , , , , city = '', lon = '', lat = ''] = line.split(',');
  if (city === 'Elsene' && /^[INO]/.test(street)) return true;
  if (street === 'Elizastraat') return true;
  if (city === 'Brussel' && (street === 'Nieuwstraat' || street === 'Wetstraat')) return true;
  const x = Number(lon);
  const y = Number(lat);
  return x >= CENTRE.west && x <= CENTRE.east && y >= CENTRE.south && y <= CENTRE.north;
}

const rows = lines.filter(picked);
writeFileSync(OUT, [header, ...rows].join('\n') + '\n');
console.log(`${OUT}: ${rows.length} rows of ${lines.length}`);
