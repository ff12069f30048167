/**
 * `npm run bench:batch -- [--api LABEL=DIR]... [--slices 8] [--slice 5] [--clients 2] [--items 1000]`
 *
 * POST /geocode/batch throughput of one or more API builds against the same Elasticsearch, measured side by side
 * on a shared machine: every build is up at once and the load alternates between them in slices (the order
 * rotating each round), `--clients` connections each posting batches of `--items` exact forward bodies back to
 * back. Per build it sums the answered addresses, the API process's CPU and Elasticsearch's CPU (`/proc` of the
 * node's pid, when it runs on this machine) over its slices: addresses/s and CPU milliseconds per address of
 * each. On two shared cores the rate is the cores divided by the sum of the two.
 *
 * Elasticsearch's CPU is the whole node's: on a node other sessions also search, its column counts their
 * searches too (compare builds within one run). Needs ELASTICSEARCH_URL holding `--prefix` (default
 * `bench-bulk-`); it only reads.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { parseApiSpec } from '../support/apiSpec.js';
import { startApiProcess } from '../support/apiProcess.js';
import { sampleAddresses, streetBodies } from '../support/benchQueries.js';
import { formatTable } from '../support/loadDriver.js';
import { elasticsearchPid, processCpuMs } from '../support/processCpu.js';
import { seededRandom } from '../support/random.js';
import { BENCH_API_KEY, BENCH_SEED, BULK_PREFIX, elasticsearchUrlFromEnv } from '../support/defaults.js';
import { interleave } from '../support/interleave.js';

const { values: args } = parseArgs({
  options: {
    api: { type: 'string', multiple: true },
    slices: { type: 'string', default: '8' },
    slice: { type: 'string', default: '5' },
    clients: { type: 'string', default: '2' },
    items: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '5000' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    prefix: { type: 'string', default: BULK_PREFIX },
  },
});

interface Build {
  label: string;
  url: string;
  pid: number;
  addresses: number;
  failed: number;
  seconds: number;
  apiCpuMs: number;
  esCpuMs: number;
}

/** `clients` connections posting the batches in turn for `seconds`; the addresses answered and the items not. */
async function drive(url: string, batches: string[], seconds: number, clients: number, start: number) {
  const end = Date.now() + seconds * 1000;
  let next = start;
  let addresses = 0;
  let failed = 0;
  const client = async () => {
    while (Date.now() < end) {
      const body = batches[next++ % batches.length]!;
      const res = await fetch(`${url}/geocode/batch`, {
        method: 'POST',
        headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' },
        body,
      });
      const answer = (await res.json()) as { results?: { status: number }[] };
      const ok = res.ok ? (answer.results ?? []).filter((r) => r.status === 200).length : 0;
      addresses += ok;
      failed += (answer.results?.length ?? Number(args.items)) - ok;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { addresses, failed, next };
}

async function main() {
  const esUrl = elasticsearchUrlFromEnv();
  const client = createElasticsearchClient({ url: esUrl, requestTimeoutMs: 60_000 });
  const esPid = await elasticsearchPid(client);
  const items = Number(args.items);
  const addresses = await sampleAddresses(client, args.prefix, Number(args.queries), Number(args.seed));
  const bodies = streetBodies(addresses, false, seededRandom(Number(args.seed)));
  const batches = Array.from({ length: Math.max(1, Math.floor(bodies.length / items)) }, (_, i) =>
    JSON.stringify({ items: bodies.slice(i * items, (i + 1) * items) }),
  );

  const children: ChildProcess[] = [];
  const builds: Build[] = [];
  try {
    for (const spec of args.api ?? ['now=.']) {
      const { label, dir } = parseApiSpec(spec);
      const api = await startApiProcess({
        elasticsearchUrl: esUrl,
        indexPrefix: args.prefix,
        apiKey: BENCH_API_KEY,
        root: resolve(dir),
      });
      children.push(api.process);
      builds.push({
        label,
        url: api.url,
        pid: api.process.pid!,
        addresses: 0,
        failed: 0,
        seconds: 0,
        apiCpuMs: 0,
        esCpuMs: 0,
      });
    }
    const clients = Number(args.clients);
    let cursor = 0;
    for (const build of builds) {
      console.error(`[batch] warming up ${build.label}`);
      cursor = (await drive(build.url, batches, 5, clients, cursor)).next;
    }
    const loadBefore = loadavg()[0]!.toFixed(1);
    const slices = Number(args.slices);
    const sliceSeconds = Number(args.slice);
    const afterRound = (round: number) =>
      console.error(`[batch] round ${round + 1}/${slices}, load average ${loadavg()[0]!.toFixed(1)}`);
    await interleave(builds, { rounds: slices, order: 'rotate', afterRound }, async (build) => {
      const api0 = processCpuMs(build.pid)!;
      const es0 = processCpuMs(esPid) ?? 0;
      const t0 = performance.now();
      const result = await drive(build.url, batches, sliceSeconds, clients, cursor);
      build.seconds += (performance.now() - t0) / 1000;
      build.apiCpuMs += processCpuMs(build.pid)! - api0;
      build.esCpuMs += (processCpuMs(esPid) ?? 0) - es0;
      build.addresses += result.addresses;
      build.failed += result.failed;
      cursor = result.next;
    });
    const perAddress = (ms: number, b: Build) => (ms / Math.max(1, b.addresses)).toFixed(4);
    console.log(
      `\nPOST /geocode/batch, ${items} exact items, ${clients} clients, ${slices} x ${sliceSeconds} s slices per ` +
        `build; load average ${loadBefore} -> ${loadavg()[0]!.toFixed(1)}` +
        (esPid ? '' : ' (Elasticsearch is not on this machine: no CPU column for it)') +
        '\n',
    );
    console.log(
      formatTable(
        ['build', 'addresses/s', 'failed items', 'API cpu ms/address', 'ES cpu ms/address', 'sum'],
        builds.map((b) => [
          b.label,
          (b.addresses / b.seconds).toFixed(0),
          String(b.failed),
          perAddress(b.apiCpuMs, b),
          esPid ? perAddress(b.esCpuMs, b) : '',
          esPid ? perAddress(b.apiCpuMs + b.esCpuMs, b) : '',
        ]),
      ),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

await main();
