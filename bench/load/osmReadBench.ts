/**
 * npm run bench:osm-read [-- FILE.osm.pbf ...] [--rounds 3] [--only addresses|boundaries]
 *
 * The OpenStreetMap reader alone (indexer/sources/osm/), no Elasticsearch: per file, in its own child process, the
 * address read (one pass: every node's location to the on-disk store, every object with addr:housenumber handed on,
 * plus the ways again for address relations) and the boundaries' read (relations, their ways, their nodes),
 * timed apart. Prints per file the objects in it, OSM objects per second of the address pass (objects in the file /
 * its time), the boundaries' time, the addresses and boundaries yielded and the child's peak RSS, the load average
 * with each; the files in interleaved rounds, medians at the end; writes bench/results/osm-read-bench.json.
 * --only: that read alone in the child (its peak RSS its own). Default files: data/sample/osm/*.osm.pbf. A file 20x Delft's, for the memory check: docs/openstreetmap.md.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readOsmAddresses } from '../../indexer/sources/osm/readOsmAddresses.js';
import { readBoundaries } from '../../indexer/sources/osm/readOsmAreas.js';
import { scanBlocks } from '../../indexer/sources/osm/pbfScan.js';
import { runWithPeakRss } from '../support/childPeakRss.js';
import { REPO_ROOT, RESULTS_DIR } from '../support/defaults.js';

const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, child: { type: 'string' }, only: { type: 'string' } },
  allowPositionals: true,
});

interface Measurement {
  objects: number;
  addressMs: number;
  objectsPerSecond: number;
  boundaryMs: number;
  addresses: number;
  boundaries: number;
}

async function child(file: string): Promise<Measurement> {
  let objects = 0;
  for await (const m of scanBlocks(file, {})) objects = m.nodes + m.wayCount + m.relationCount;
  let addresses = 0;
  const started = performance.now();
  if (values.only !== 'boundaries') for await (const _ of readOsmAddresses(file)) addresses++;
  const addressMs = performance.now() - started;
  const boundaryStart = performance.now();
  const boundaries = values.only === 'addresses' ? 0 : (await readBoundaries(file)).length;
  const boundaryMs = performance.now() - boundaryStart;
  return {
    objects,
    addressMs: Math.round(addressMs),
    objectsPerSecond: Math.round(objects / (addressMs / 1000)),
    boundaryMs: Math.round(boundaryMs),
    addresses,
    boundaries,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (values.child) {
  process.stdout.write(JSON.stringify(await child(values.child)));
} else {
  const dir = join(REPO_ROOT, 'data/sample/osm');
  const files = positionals.length
    ? positionals
    : readdirSync(dir)
        .filter((f) => f.endsWith('.osm.pbf'))
        .map((f) => join(dir, f));
  const runs = new Map<string, (Measurement & { peakRssMb: number; load: string })[]>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const file of files) {
      const only = values.only ? ['--only', values.only] : [];
      const run = await runWithPeakRss(
        process.execPath,
        ['--import', 'tsx', import.meta.filename, '--child', file, ...only],
        {
          cwd: REPO_ROOT,
        },
      );
      if (run.code !== 0) throw new Error(`${file}: the child exited with ${run.code}`);
      const m = { ...(JSON.parse(run.stdout) as Measurement), peakRssMb: run.peakRssMb, load: load() };
      console.log(basename(file), JSON.stringify(m));
      runs.set(file, [...(runs.get(file) ?? []), m]);
    }
  }
  const summary = [...runs].map(([file, ms]) => ({
    file: basename(file),
    objects: ms[0]?.objects,
    objectsPerSecond: median(ms.map((m) => m.objectsPerSecond)),
    boundaryMs: median(ms.map((m) => m.boundaryMs)),
    peakRssMb: median(ms.map((m) => m.peakRssMb)),
    addresses: ms[0]?.addresses,
    boundaries: ms[0]?.boundaries,
  }));
  console.table(summary);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    join(RESULTS_DIR, 'osm-read-bench.json'),
    JSON.stringify({ runs: Object.fromEntries(runs), summary }, null, 2),
  );
}
