/**
 * npm run bench:csv-read [-- FILE ...]
 * npm run bench:csv-read -- --manifest [LABEL=]MANIFEST ... [--rounds 3] [--no-transform]
 *
 * The indexer's read stage alone, no Elasticsearch.
 *
 * With FILEs (default ../shared/data/bulk/*.csv.gz): the CSV read (open, gunzip, encoding check, csv-parse, line
 * accounting), every record read and counted. Prints records, physical lines and the time taken; compare two
 * checkouts by running it in each, in turn, as whole processes (the machine is shared: compare ratios within one
 * session, not absolute times).
 *
 * With --manifest (any format the indexer reads: csv, bag-gpkg, best-csv, ...): each manifest's address sources
 * read as the indexer reads them, each item classified (sourceItems.ts) and turned into an address document
 * (transform/address.ts: coordinates, street and house-number normalisation, ids), without parents or
 * Elasticsearch. Each manifest runs as its own child process (its peak RSS its own), the manifests in interleaved
 * rounds (the order rotating), the load average logged with every measurement. Prints per manifest the median
 * addresses/s and peak RSS and their ratio to the first manifest's; writes bench/results/read-bench.json.
 * scripts/fixtures/makeBulkBagGeoPackage.ts writes a pair of manifests holding the same addresses as CSV and as a
 * BAG GeoPackage. --no-transform: read and classify only. Profile one side: node --cpu-prof --import tsx
 * bench/load/csvReadBench.ts --child MANIFEST.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadManifest } from '../../indexer/manifest/manifest.js';
import { classifyItem } from '../../indexer/transform/sourceItems.js';
import { readCsv } from '../../indexer/sources/csv.js';
import { readSource, type ReadStats } from '../../indexer/sources/index.js';
import { addressFromRecord } from '../../indexer/transform/address.js';
import { runWithPeakRss } from '../support/childPeakRss.js';
import { REPO_ROOT, RESULTS_DIR } from '../support/defaults.js';
import { interleave } from '../support/interleave.js';

const { values, positionals } = parseArgs({
  options: {
    manifest: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    'no-transform': { type: 'boolean' },
    child: { type: 'string' },
  },
  allowPositionals: true,
});

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The CSV read stage alone over FILEs: records and rejects counted. */
async function readFiles(): Promise<void> {
  const bulk = resolve(REPO_ROOT, '../shared/data/bulk');
  const files = positionals.length
    ? positionals
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
}

/** What one child reports of one manifest's address sources. */
interface ChildReport {
  read: number;
  skipped: number;
  rejected: number;
  addresses: number;
  /** Mean position of the addresses made: the same addresses in two formats give (nearly) the same. */
  meanLon: number;
  meanLat: number;
  ms: number;
  /** CPU time of the whole process (user + system, every thread) over the same span. */
  cpuMs: number;
  maxRssMb: number;
}

/** --child: one manifest's address sources through reader, classification and address transform. */
async function readManifest(path: string, transform: boolean): Promise<void> {
  const { manifest } = await loadManifest(path);
  const r = { read: 0, skipped: 0, rejected: 0, addresses: 0 };
  let lon = 0;
  let lat = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const source of manifest.levels.addresses ?? []) {
    const stats: ReadStats = { encoding: '' };
    for await (const item of readSource(source, undefined, stats, 'addresses')) {
      const outcome = classifyItem(item, source);
      if (outcome.kind === 'skipped') {
        r.skipped++;
        continue;
      }
      r.read++;
      if (outcome.kind === 'rejected' || !transform) {
        if (outcome.kind === 'rejected') r.rejected++;
        continue;
      }
      const doc = addressFromRecord(item.props, item.geometry, source.fields);
      if (!doc.ok) {
        r.rejected++;
        continue;
      }
      r.addresses++;
      lon += doc.value.location.lon;
      lat += doc.value.location.lat;
    }
  }
  const report: ChildReport = {
    ...r,
    meanLon: lon / Math.max(1, r.addresses),
    meanLat: lat / Math.max(1, r.addresses),
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round(Object.values(process.cpuUsage(cpu)).reduce((a, b) => a + b, 0) / 1000),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

interface Measurement extends ChildReport {
  label: string;
  round: number;
  /** Records read (kept by classification) per second. */
  perSecond: number;
  /** Records read per second of the process's CPU time: what a loaded, shared machine disturbs least. */
  perCpuSecond: number;
  peakRssMb: number;
  loadBefore: string;
  loadAfter: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** --manifest: every manifest as a child process, in interleaved rounds. */
async function compareManifests(specs: string[]): Promise<void> {
  const manifests = specs.map((spec) => {
    const eq = spec.indexOf('=');
    const path = resolve(eq > 0 ? spec.slice(eq + 1) : spec);
    return { label: eq > 0 ? spec.slice(0, eq) : basename(path), path };
  });
  const transform = !values['no-transform'];
  const measurements: Measurement[] = [];
  await interleave(manifests, { rounds: Number(values.rounds), order: 'rotate' }, async (m, round) => {
    const loadBefore = load();
    const run = await runWithPeakRss(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO_ROOT, 'bench/load/csvReadBench.ts'),
        '--child',
        m.path,
        ...(transform ? [] : ['--no-transform']),
      ],
      { cwd: REPO_ROOT },
    );
    if (run.code !== 0) throw new Error(`${m.label}: the read exited with ${run.code}: ${run.stdout.slice(0, 2000)}`);
    const report = JSON.parse(run.stdout) as ChildReport;
    const row: Measurement = {
      label: m.label,
      round,
      ...report,
      perSecond: Math.round(report.read / (report.ms / 1000)),
      perCpuSecond: Math.round(report.read / (report.cpuMs / 1000)),
      peakRssMb: Math.max(run.peakRssMb, report.maxRssMb),
      loadBefore,
      loadAfter: load(),
    };
    measurements.push(row);
    process.stderr.write(
      `round ${round} ${m.label}: ${row.read} read, ${row.addresses} addresses, ${row.perSecond}/s, ${row.perCpuSecond}/CPU-s, ` +
        `peak RSS ${row.peakRssMb} MB, load ${loadBefore} -> ${row.loadAfter}\n`,
    );
  });
  const first = manifests[0]?.label;
  const summary = manifests.map(({ label }) => {
    const rows = measurements.filter((x) => x.label === label);
    return {
      label,
      read: rows[0]?.read,
      addresses: rows[0]?.addresses,
      rejected: rows[0]?.rejected,
      meanLonLat: `${rows[0]?.meanLon.toFixed(6)} ${rows[0]?.meanLat.toFixed(6)}`,
      medianPerSecond: median(rows.map((x) => x.perSecond)),
      medianPerCpuSecond: median(rows.map((x) => x.perCpuSecond)),
      medianPeakRssMb: median(rows.map((x) => x.peakRssMb)),
    };
  });
  const base = summary.find((s) => s.label === first);
  /** The median over rounds of the rate's ratio to the first manifest's in the same round (paired). */
  const pairedRatio = (label: string) =>
    median(
      measurements
        .filter((x) => x.label === label)
        .map((x) => {
          const b = measurements.find((y) => y.label === first && y.round === x.round);
          return b ? x.perSecond / b.perSecond : NaN;
        }),
    ).toFixed(2);
  const table = summary.map((s) => ({
    ...s,
    pairedRateVsFirst: pairedRatio(s.label),
    rateVsFirst: base ? (s.medianPerSecond / base.medianPerSecond).toFixed(2) : '',
    cpuRateVsFirst: base ? (s.medianPerCpuSecond / base.medianPerCpuSecond).toFixed(2) : '',
    rssVsFirst: base ? (s.medianPeakRssMb / base.medianPeakRssMb).toFixed(2) : '',
  }));
  console.table(table);
  console.log(
    `read/s = address records read (classified, not skipped) / time of reader${transform ? ' + address transform' : ''};` +
      " per CPU-s: the same over the process's CPU time (user + system, all threads); peak RSS = VmHWM of the" +
      ' child process. Medians over rounds; ratios to the first manifest.',
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'read-bench.json'), `${JSON.stringify({ summary: table, measurements }, null, 2)}\n`);
}

if (values.child) await readManifest(values.child, !values['no-transform']);
else if (values.manifest?.length) await compareManifests(values.manifest);
else await readFiles();
