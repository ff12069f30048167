/** The CSV tables a code join maps its values through (`parent.lookup` in a manifest), each read once per run. */
import { readCsvTable } from '../sources/csv.js';

export interface LookupSpec {
  file: string;
  key: string;
  value: string;
  delimiter?: string | undefined;
  encoding?: string | undefined;
}

export class LookupTables {
  private readonly tables = new Map<string, Map<string, string>>();

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
