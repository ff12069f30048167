/**
 * The sources of `npm run bench:scale --build indexer`: the bulk manifest with copies 2..N of every CSV address
 * file beside the originals, each row renamed by replicaSourceRow ("Groningen~2", ids "<id>~2"), so the real
 * indexer builds N times the addresses, derives their cities and streets, and times it. Join tables keyed by city
 * (Brussels' French street names) gain the replica cities' rows. Files are written once into `dir` and reused.
 */
import { createWriteStream, existsSync, readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';
import { absolutePaths } from '../../indexer/manifest/absolutePaths.js';
import { csvRecord, readCsv, readCsvTable } from '../../indexer/sources/csv.js';
import { replicaCity, replicaSourceRow } from './scaleReplicas.js';

interface CsvAddressSource {
  file: string;
  format: string;
  fields: { sourceId: string; city: string } & Record<string, unknown>;
  streetNames?: { within?: { lookup?: { file: string; key: string } } };
}

/** A gzip CSV file written in large pieces, waiting for the disk when it falls behind. */
class CsvWriter {
  private readonly gzip = createGzip({ level: 1 });
  private readonly done: Promise<void>;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    readonly path: string,
    header: readonly string[],
  ) {
    const out = createWriteStream(`${path}.part`);
    this.gzip.pipe(out);
    this.done = once(out, 'finish').then(() => undefined);
    this.pending.push(csvRecord(header));
  }

  async write(values: readonly string[]): Promise<void> {
    const line = csvRecord(values);
    this.pending.push(line);
    this.pendingLength += line.length;
    if (this.pendingLength > 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingLength = 0;
    if (!this.gzip.write(text)) await once(this.gzip, 'drain');
  }

  async close(): Promise<void> {
    if (this.pending.length) await this.flush();
    this.gzip.end();
    await this.done;
    renameSync(`${this.path}.part`, this.path);
  }
}

/** Copies 2..size of one CSV address file, read once; returns the copies' paths (reused when already written). */
async function writeCopies(source: CsvAddressSource, size: number, dir: string): Promise<string[]> {
  const name = basename(source.file).replace(/\.csv(\.gz)?$/, '');
  const paths = Array.from({ length: size - 1 }, (_, i) => join(dir, `${name}~${i + 2}.csv.gz`));
  const missing = paths.map((path, i) => ({ path, copy: i + 2 })).filter((p) => !existsSync(p.path));
  if (!missing.length) return paths;
  let writers: { copy: number; writer: CsvWriter }[] | undefined;
  for await (const item of readCsv(source.file)) {
    if (item.error) throw new Error(`${source.file} line ${item.position}: ${item.error}`);
    const row = item.props as Record<string, string>;
    writers ??= missing.map(({ path, copy }) => ({ copy, writer: new CsvWriter(path, Object.keys(row)) }));
    for (const { copy, writer } of writers) {
      await writer.write(Object.values(replicaSourceRow(row, copy, source.fields)));
    }
  }
  for (const { writer } of writers ?? []) await writer.close();
  return paths;
}

/** A city-keyed join table with every row repeated for the replica cities (key "<city>~k"), written once. */
async function replicaJoinTable(file: string, key: string, size: number, dir: string): Promise<string> {
  const path = join(dir, `${basename(file).replace(/\.csv$/, '')}-x${size}.csv`);
  if (existsSync(path)) return path;
  const rows = await readCsvTable(file);
  const header = Object.keys(rows[0] ?? {});
  const lines = [csvRecord(header)];
  for (let copy = 1; copy <= size; copy++) {
    for (const row of rows) {
      const values = header.map((h) => (h === key && copy > 1 ? replicaCity(row[h] ?? '', copy) : (row[h] ?? '')));
      lines.push(csvRecord(values));
    }
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/**
 * Writes (or reuses) the size's copies under `dir` and a manifest naming originals and copies; returns the
 * manifest's path. Size 1 is the bulk manifest itself.
 */
export async function scaleManifest(
  manifestPath: string,
  size: number,
  dir: string,
  log: (m: string) => void,
): Promise<string> {
  if (size === 1) return manifestPath;
  mkdirSync(dir, { recursive: true });
  const manifest = absolutePaths(JSON.parse(readFileSync(manifestPath, 'utf8')), dirname(manifestPath)) as {
    name: string;
    levels: { addresses: CsvAddressSource[] };
  };
  const addresses: CsvAddressSource[] = [];
  for (const source of manifest.levels.addresses) {
    if (source.format !== 'csv') throw new Error(`bench:scale --build indexer copies CSV address files only`);
    const started = Date.now();
    const copies = await writeCopies(source, size, dir);
    log(`x${size}: ${basename(source.file)} copies 2-${size} ready (${Math.round((Date.now() - started) / 1000)} s)`);
    const lookup = source.streetNames?.within?.lookup;
    if (lookup) lookup.file = await replicaJoinTable(lookup.file, lookup.key, size, dir);
    addresses.push(source, ...copies.map((file) => ({ ...source, file })));
  }
  manifest.levels.addresses = addresses;
  manifest.name = `${manifest.name}-x${size}`;
  const path = join(dir, `manifest-x${size}.json`);
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}
