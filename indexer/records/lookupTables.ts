/**
 * The CSV tables a code join maps its values through (`parent.lookup` in a manifest) and the tables areas take their
 * names per language from (`namesTable`), each read once per run.
 */
import { readCsvTable } from '../sources/csv.js';
import type { NamesTableSpec } from '../manifest/manifestSources.js';
import type { Names } from './names.js';

export interface LookupSpec {
  file: string;
  key: string;
  value: string;
  delimiter?: string | undefined;
  encoding?: string | undefined;
}

export class LookupTables {
  private readonly tables = new Map<string, Map<string, string>>();
  private readonly nameTables = new Map<NamesTableSpec, Promise<Map<string, Names>>>();

  /** Key -> the row's non-empty names per language (the first row of a key wins, as in `get`). */
  names(spec: NamesTableSpec): Promise<Map<string, Names>> {
    let table = this.nameTables.get(spec);
    if (!table) {
      table = readCsvTable(spec.file, { delimiter: spec.delimiter, encoding: spec.encoding }).then((rows) => {
        const byKey = new Map<string, Names>();
        for (const row of rows) {
          const key = (row[spec.key] ?? '').trim();
          if (!key || byKey.has(key)) continue;
          const names: Names = {};
          for (const [language, column] of Object.entries(spec.names)) {
            const name = (row[column] ?? '').trim();
            if (name) names[language] = name;
          }
          byKey.set(key, names);
        }
        return byKey;
      });
      this.nameTables.set(spec, table);
    }
    return table;
  }

  async get(spec: LookupSpec): Promise<Map<string, string>> {
    const cacheKey = `${spec.file}\0${spec.key}\0${spec.value}`;
    let table = this.tables.get(cacheKey);
    if (!table) {
      table = new Map();
      for (const row of await readCsvTable(spec.file, { delimiter: spec.delimiter, encoding: spec.encoding })) {
        const k = (row[spec.key] ?? '').trim();
        if (k && !table.has(k)) table.set(k, (row[spec.value] ?? '').trim());
      }
      this.tables.set(cacheKey, table);
    }
    return table;
  }
}
