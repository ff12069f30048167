/**
 * `npx tsx bench/msearchCost.ts` (ELASTICSEARCH_URL, PREFIX, ROUNDS, VARIANTS): Elasticsearch's CPU per search of
 * exact forward bodies sent straight to it as `_msearch` requests of several shapes, interleaved in 3 s slices
 * (the order rotating each round) so a shared machine's noise falls on each alike. Elasticsearch's CPU is its
 * process's (`/proc`): use a node of your own (`npm run es`, indexed with the sample), not one others search.
 *
 * VARIANTS (JSON): `[{"name":"64 per request","per":64,"inflight":2,"body":"source"}]`: searches per `_msearch`,
 * requests in flight, and a change to the body (`as-is` or `source`: `_source: true`, no filtering).
 * This is how the batch's `_msearch` size was chosen (docs/performance.md, "Batch geocoding: what bounds it").
 */
import { loadavg } from 'node:os';
import type { estypes } from '@elastic/elasticsearch';
import { createElasticsearchClient } from '../src/elasticsearch/client.js';
import { aliasName } from '../core/elasticsearch/indexNames.js';
import { exactForwardRequest } from '../src/features/address/addressBodies.js';
import { parseStreetQuery } from '../src/features/address/streetRequest.js';
import { sampleAddresses, streetBodies } from './support/benchQueries.js';
import { elasticsearchPid, processCpuMs } from './support/processCpu.js';
import { seededRandom } from './support/random.js';

interface Variant {
  name: string;
  per: number;
  inflight: number;
  body?: keyof typeof bodyChanges;
}

const bodyChanges = {
  'as-is': (b: estypes.SearchRequest) => b,
  source: (b: estypes.SearchRequest) => ({ ...b, _source: true }),
};

const url = process.env.ELASTICSEARCH_URL;
if (!url) throw new Error('ELASTICSEARCH_URL is required (a node of your own holding PREFIX, default bench-delft-)');
const prefix = process.env.PREFIX ?? 'bench-delft-';
const client = createElasticsearchClient({ url, requestTimeoutMs: 60_000 });
const pid = await elasticsearchPid(client);
if (pid === undefined) throw new Error('Elasticsearch does not run on this machine: its CPU cannot be read');
const addresses = await sampleAddresses(client, prefix, 2000, 42);
const bodies = streetBodies(addresses, false, seededRandom(42)).map((b) => exactForwardRequest(parseStreetQuery(b)));
const index = aliasName(prefix, 'addresses');
const variants: Variant[] = process.env.VARIANTS
  ? JSON.parse(process.env.VARIANTS)
  : [
      { name: '16 per request, 8 in flight', per: 16, inflight: 8 },
      { name: '16 per request, 2 in flight', per: 16, inflight: 2 },
      { name: '64 per request, 2 in flight', per: 64, inflight: 2 },
      { name: '64 per request, 8 in flight', per: 64, inflight: 8 },
    ];

let cursor = 0;
/** `v` for `seconds`: its searches sent and Elasticsearch's CPU milliseconds meanwhile. */
async function run(v: Variant, seconds: number) {
  const end = Date.now() + seconds * 1000;
  const change = bodyChanges[v.body ?? 'as-is'];
  let searches = 0;
  const sender = async () => {
    while (Date.now() < end) {
      const lines: string[] = [];
      for (let i = 0; i < v.per; i++) {
        lines.push(JSON.stringify({ index }), JSON.stringify(change(bodies[cursor++ % bodies.length]!)));
      }
      const res = await fetch(`${url}/_msearch?max_concurrent_searches=${v.per}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: `${lines.join('\n')}\n`,
      });
      await res.arrayBuffer();
      searches += v.per;
    }
  };
  const before = processCpuMs(pid)!;
  await Promise.all(Array.from({ length: v.inflight }, sender));
  return { searches, cpuMs: processCpuMs(pid)! - before };
}

for (const v of variants) await run(v, 3); // warm-up: Elasticsearch's JIT
const totals = variants.map(() => ({ searches: 0, cpuMs: 0 }));
const rounds = Number(process.env.ROUNDS ?? 8);
const load0 = loadavg()[0]!.toFixed(1);
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < variants.length; k++) {
    const i = (r + k) % variants.length;
    const { searches, cpuMs } = await run(variants[i]!, 3);
    totals[i]!.searches += searches;
    totals[i]!.cpuMs += cpuMs;
  }
}
console.log(`load average ${load0} -> ${loadavg()[0]!.toFixed(1)}; ${rounds} rounds x 3 s per variant`);
for (const [i, v] of variants.entries()) {
  const t = totals[i]!;
  console.log(`${v.name.padEnd(32)} Elasticsearch CPU ms per search ${(t.cpuMs / t.searches).toFixed(4)}`);
}
