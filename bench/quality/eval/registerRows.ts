/**
 * The address rows of a manifest's CSV sources as the register wrote them (number, letter and addition columns
 * untouched: `2.11`, `F/88`, `b 2`, `7étR`), for evaluations that must type a box or an addition the way the source
 * spells it; the index keeps only the compacted key. Streams each file (gzip when it ends in `.gz`), one row at a
 * time.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';

export interface RegisterRow {
  id: string;
  street: string;
  number: string;
  letter: string;
  addition: string;
  postcode: string;
  city: string;
}

interface CsvSource {
  file: string;
  format: string;
  fields: Partial<Record<'sourceId' | 'street' | 'number' | 'letter' | 'addition' | 'postcode' | 'city', unknown>>;
}

/** Every row of the manifest's CSV address sources that names its columns (street, number, letter, addition). */
export async function* registerRows(manifestPath: string): AsyncGenerator<RegisterRow> {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { levels: { addresses?: CsvSource[] } };
  for (const source of manifest.levels.addresses ?? []) {
    const f = source.fields;
    const names = [f.sourceId, f.street, f.number, f.letter, f.addition, f.postcode, f.city];
    if (source.format !== 'csv' || !names.every((n) => typeof n === 'string')) continue;
    const [id, street, number, letter, addition, postcode, city] = names;
    const path = resolve(dirname(manifestPath), source.file);
    const raw = createReadStream(path);
    const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
    for await (const r of input.pipe(parse({ columns: true, relax_column_count: true }))) {
      const row = r as Record<string, string>;
      yield {
        id: row[id!] ?? '',
        street: row[street!] ?? '',
        number: row[number!] ?? '',
        letter: row[letter!] ?? '',
        addition: row[addition!] ?? '',
        postcode: row[postcode!] ?? '',
        city: row[city!] ?? '',
      };
    }
  }
}
