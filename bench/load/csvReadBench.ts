/**
 * npm run bench:csv-read [-- FILE ...]
 *
 * The indexer's CSV read stage alone (open, gunzip, encoding check, csv-parse, line accounting), no
 * Elasticsearch: every record of the bulk address files (default ../shared/data/bulk/*.csv.gz) is read and
 * counted. Prints records, physical lines and the time taken; compare two checkouts by running it in each, in
 * turn, as whole processes (the machine is shared: compare ratios within one session, not absolute times).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCsv } from '../../indexer/sources/csv.js';
import { REPO_ROOT } from '../support/defaults.js';

const bulk = resolve(REPO_ROOT, '../shared/data/bulk');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(bulk)
      .filter((f) => f.endsWith('.csv.gz'))
      .sort()
      .map((f) => join(bulk, f));

const started = performance.now();
let records = 0;
let rejected = 0;
for (const file of files) {
  for await (const item of readCsv(file)) {
    if (item.error) rejected++;
    else records++;
  }
}
const ms = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ files: files.length, records, rejected, ms: Math.round(ms), recordsPerSecond: Math.round(records / (ms / 1000)) })}\n`,
);
