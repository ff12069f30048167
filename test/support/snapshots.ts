/**
 * Snapshots for the update tests, made from the sample's real rows in a scratch folder: the sample manifest with
 * every path absolute (snapshot A), and a copy whose address files and Brussels street-names table are edited
 * (snapshot B): addresses added, removed and moved, a street renamed in both languages, a postcode and a box changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { absolutePaths } from '../../indexer/manifest/absolutePaths.js';

const SAMPLE = 'datasets/sample.json';

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n');
}

/** Edits one column of a row by header name (the rows edited hold no quoted field). */
function setColumn(header: string, row: string, column: string, value: (old: string) => string): string {
  const names = header.split(',');
  const cells = row.split(',');
  if (cells.length !== names.length) throw new Error(`row has a quoted field: ${row}`);
  const i = names.indexOf(column);
  cells[i] = value(cells[i] ?? '');
  return cells.join(',');
}

/** The indexes of `count` data rows without quotes, spread over the file from `from`. */
function plainRows(rows: string[], from: number, count: number, step: number): number[] {
  const out: number[] = [];
  for (let i = from; i < rows.length && out.length < count; i += step) {
    if (rows[i] && !rows[i]!.includes('"')) out.push(i);
  }
  return out;
}

export interface Snapshots {
  a: string;
  b: string;
  /** B's address files with A's street-names table: only address rows differ from A (update replays the rest). */
  rowsOnly: string;
  /** What B changed, for the assertions. */
  renamed: { from: string; to: string; fromFr: string; toFr: string };
}

export function writeSnapshots(dir: string): Snapshots {
  const base = dirname(resolve(SAMPLE));
  const manifest = absolutePaths(JSON.parse(readFileSync(SAMPLE, 'utf8')), base) as {
    levels: { addresses: { file: string; streetNames?: { file: string } }[] };
  };
  const a = join(dir, 'a.json');
  writeFileSync(a, JSON.stringify(manifest, null, 2));

  const [delft, brussels] = manifest.levels.addresses as [
    { file: string },
    { file: string; streetNames: { file: string } },
  ];
  // Delft (OSM): 5 removed, 1 added, 1 moved, 1 postcode changed.
  const d = lines(delft.file);
  const dh = d[0] as string;
  const [r1, r2, r3, r4, r5, add, move, postcode] = plainRows(d, 101, 8, 97);
  d[move!] = setColumn(dh, d[move!]!, 'lon', (lon) => String(Number(lon) + 0.0005));
  d[postcode!] = setColumn(dh, d[postcode!]!, 'postcode', (p) => `${p.slice(0, 4)}ZZ`);
  let added = setColumn(dh, d[add!]!, 'osm_id', () => '99900001');
  added = setColumn(dh, added, 'housenumber', () => '999');
  added = setColumn(dh, added, 'housenumber_raw', () => '999');
  const removed = new Set([r1, r2, r3, r4, r5]);
  const delftB = [...d.filter((_, i) => !removed.has(i)).filter((l) => l !== ''), added];
  const delftFile = join(dir, 'delft_b.csv');
  writeFileSync(delftFile, `${delftB.join('\n')}\n`);

  // Brussels (BeST): a street renamed in Dutch and French, a box changed, 2 removed, 1 added.
  const renamed = { from: 'Idaliestraat', to: 'Idaliastraat', fromFr: "Rue d'Idalie", toFr: "Rue d'Idalia" };
  const b = lines(brussels.file).filter((l) => l !== '');
  const bh = b[0] as string;
  for (let i = 1; i < b.length; i++) {
    if (b[i]!.split(',')[1] === renamed.from) b[i] = setColumn(bh, b[i]!, 'street', () => renamed.to);
  }
  const box = b.findIndex((l, i) => i > 0 && l.split(',')[4] !== '' && !l.includes('"'));
  b[box] = setColumn(bh, b[box]!, 'addition', (old) => `${old}9`);
  const newRow = setColumn(
    bh,
    setColumn(bh, b[500]!, 'id', () => 'be-bru-999999'),
    'number',
    () => '999',
  );
  const brusselsB = [...b.filter((_, i) => i !== 1200 && i !== 2400), newRow];
  const brusselsFile = join(dir, 'brussels_b.csv');
  writeFileSync(brusselsFile, `${brusselsB.join('\n')}\n`);
  const streets = lines(brussels.streetNames.file).map((l) =>
    l.includes(`,${renamed.from},`)
      ? l.replace(`,${renamed.from},`, `,${renamed.to},`).replace(renamed.fromFr, renamed.toFr)
      : l,
  );
  const streetsFile = join(dir, 'streets_b.csv');
  writeFileSync(streetsFile, streets.join('\n'));

  delft.file = delftFile;
  brussels.file = brusselsFile;
  const rowsOnly = join(dir, 'rows-only.json');
  writeFileSync(rowsOnly, JSON.stringify(manifest, null, 2));
  brussels.streetNames.file = streetsFile;
  const bPath = join(dir, 'b.json');
  writeFileSync(bPath, JSON.stringify(manifest, null, 2));
  return { a, b: bPath, rowsOnly, renamed };
}

/**
 * Two snapshots whose derived cities fold differently (indexer/derived/derivedCities.ts), from the sample: in A the
 * city of the first 40 Elsene rows of the Brussels file is set to "Brussel". Those rows lie in the municipality of
 * Elsene, beside the 161 "Brussel" rows of the city of Brussels: a group folded into Brussels' "Brussel". In B the
 * Brussels rows also say "Bruxelles" (the city's French name, as a source in French writes it): no "Brussel" is left
 * in Brussels, and the 40 stand alone, a city of their own.
 */
export function writeFoldSnapshots(dir: string): { a: string; b: string; changedRows: number } {
  const base = dirname(resolve(SAMPLE));
  const manifest = absolutePaths(JSON.parse(readFileSync(SAMPLE, 'utf8')), base) as {
    levels: { addresses: { file: string }[] };
  };
  const brussels = manifest.levels.addresses[1] as { file: string };
  const rows = lines(brussels.file).filter((l) => l !== '');
  const header = rows[0] as string;
  const cityOf = (city: string) =>
    rows.flatMap((l, i) => (i > 0 && !l.includes('"') && l.split(',')[6] === city ? [i] : []));
  const [elsene, brussel] = [cityOf('Elsene').slice(0, 40), cityOf('Brussel')];
  const write = (name: string, renames: [number[], string][]): string => {
    const edited = [...rows];
    for (const [at, city] of renames) for (const i of at) edited[i] = setColumn(header, edited[i]!, 'city', () => city);
    const file = join(dir, `brussels_${name}.csv`);
    writeFileSync(file, `${edited.join('\n')}\n`);
    const addresses = [manifest.levels.addresses[0], { ...brussels, file }];
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify({ ...manifest, levels: { ...manifest.levels, addresses } }, null, 2));
    return path;
  };
  const a = write('folds-a', [[elsene, 'Brussel']]);
  const b = write('folds-b', [
    [elsene, 'Brussel'],
    [brussel, 'Bruxelles'],
  ]);
  return { a, b, changedRows: brussel.length };
}
