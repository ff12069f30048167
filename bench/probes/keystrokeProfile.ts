/**
 * `npm run bench:keystroke -- [--streets 60] [--seed 42] [--prefix bench-bulk-] [--focus]`
 *
 * Where Elasticsearch's part of a keystroke goes: the bench's keystrokes (benchQueries.ts `keystrokePaths`, every
 * prefix of drawn street names, then the street and number; `--focus`: with the drawn address as the map's centre)
 * go one at a time through autocomplete as the app wires it, and every search it sends is sent on its own with
 * Elasticsearch's profile API on. Per search (the streets, the areas, the places index, the address index, the typo
 * rounds) and per length of what was typed: how many searches a keystroke sends, `took`, and the profile's query,
 * rewrite (a prefix or regexp query's term expansion), collector (scoring and sorting) and fetch (reading
 * `_source`) times; then the query types that take the most. The profile API adds its own overhead, so the times
 * are larger than unprofiled ones: read them as shares. Needs ELASTICSEARCH_URL with the `--prefix` data loaded;
 * it only reads.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { estypes } from '@elastic/elasticsearch';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import type { Lane, Searcher } from '../../src/elasticsearch/searchBatcher.js';
import { createServiceLogger } from '../../src/logger.js';
import { buildSearchServices } from '../../src/wiring/services.js';
import { answerAutocomplete } from '../../src/features/autocomplete/autocompleteAnswer.js';
import { keystrokePaths, sampleAddresses } from '../support/benchQueries.js';
import { BENCH_SEED, BULK_PREFIX, elasticsearchUrlFromEnv } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    streets: { type: 'string', default: '60' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    prefix: { type: 'string', default: BULK_PREFIX },
    focus: { type: 'boolean', default: false },
  },
});

interface Times {
  searches: number;
  took: number;
  query: number;
  rewrite: number;
  collector: number;
  fetch: number;
}

const empty = (): Times => ({ searches: 0, took: 0, query: 0, rewrite: 0, collector: 0, fetch: 0 });
const ms = (nanos: number) => nanos / 1e6;

function add(into: Times, from: Times) {
  for (const k of Object.keys(into) as (keyof Times)[]) into[k] += from[k];
}

/** A profiled answer's times in ms, and each query node's own time (its time less its children's) by type. */
function timesOf(res: estypes.SearchResponse, byType: Map<string, number>): Times {
  const t = { ...empty(), searches: 1, took: res.took };
  const walk = (node: estypes.SearchQueryProfile) => {
    const children = node.children ?? [];
    const own = node.time_in_nanos - children.reduce((s, c) => s + c.time_in_nanos, 0);
    byType.set(node.type, (byType.get(node.type) ?? 0) + ms(own));
    children.forEach(walk);
  };
  for (const shard of res.profile?.shards ?? []) {
    for (const search of shard.searches) {
      for (const q of search.query) {
        t.query += ms(q.time_in_nanos);
        walk(q);
      }
      t.rewrite += ms(search.rewrite_time);
      for (const c of search.collector) t.collector += ms(c.time_in_nanos);
    }
    t.fetch += ms(shard.fetch?.time_in_nanos ?? 0);
  }
  return t;
}

/** What was typed, as a bucket: its length in characters, or an address once a number follows. */
function bucketOf(q: string): string {
  if (/\s\d/.test(q)) return 'street + number';
  const n = q.length;
  return n <= 3 ? `${n} chars` : n <= 6 ? '4-6 chars' : '7+ chars';
}

async function main() {
  const client = createElasticsearchClient({ url: elasticsearchUrlFromEnv(), requestTimeoutMs: 60_000 });
  const prefix = args.prefix;
  try {
    const bySearch = new Map<string, Times>();
    const byBucket = new Map<string, Times>();
    const byType = new Map<string, number>();
    let bucket = '';
    const searcher: Searcher = {
      async search<T>(index: string, body: estypes.SearchRequest, lane: Lane = 'exact') {
        const res = await client.search<T>({ index, ...body, profile: true });
        const times = timesOf(res, byType);
        const key = `${index.slice(prefix.length)} ${lane}`;
        for (const [map, k] of [
          [bySearch, key],
          [byBucket, bucket],
        ] as const) {
          const into = map.get(k) ?? empty();
          add(into, times);
          map.set(k, into);
        }
        return res;
      },
    };
    const services = buildSearchServices({
      client,
      indexPrefix: prefix,
      searcher,
      logger: createServiceLogger('silent'),
    });
    const drawn = await sampleAddresses(client, prefix, Number(args.streets), Number(args.seed));
    const queries = keystrokePaths(drawn, { focus: args.focus }).map((path) =>
      Object.fromEntries(new URLSearchParams(path.slice(path.indexOf('?') + 1))),
    );
    const ask = (p: Record<string, string>) =>
      answerAutocomplete(
        services,
        { q: p.q!, size: 10, lat: p.lat ? Number(p.lat) : undefined, lon: p.lon ? Number(p.lon) : undefined },
        undefined,
      );
    // Warm-up: Elasticsearch's caches and the city names (read once per generation).
    for (const p of queries.slice(0, 50)) await ask(p);
    bySearch.clear();
    byBucket.clear();
    byType.clear();
    const keystrokesIn = new Map<string, number>();
    for (const p of queries) {
      bucket = bucketOf(p.q!);
      keystrokesIn.set(bucket, (keystrokesIn.get(bucket) ?? 0) + 1);
      await ask(p);
    }
    const n = queries.length;
    const header =
      `${'searches per keystroke'.padEnd(28)} ${'n/ks'.padStart(6)} ${'took'.padStart(7)} ${'query'.padStart(7)} ` +
      `${'rewrite'.padStart(7)} ${'collect'.padStart(7)} ${'fetch'.padStart(7)}   (ms per keystroke)`;
    const line = (name: string, t: Times, per: number) =>
      `${name.padEnd(28)} ${(t.searches / per).toFixed(2).padStart(6)} ${(t.took / per).toFixed(3).padStart(7)} ` +
      `${(t.query / per).toFixed(3).padStart(7)} ${(t.rewrite / per).toFixed(3).padStart(7)} ` +
      `${(t.collector / per).toFixed(3).padStart(7)} ${(t.fetch / per).toFixed(3).padStart(7)}`;
    console.log(
      `${n} keystrokes of ${drawn.length} drawn streets${args.focus ? ' with a focus' : ''} (seed ${args.seed}, ` +
        `${prefix}), profiled one search at a time; load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
    console.log(header);
    const total = empty();
    for (const [name, t] of [...bySearch.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(line(name, t, n));
      add(total, t);
    }
    console.log(line('all', total, n));
    console.log(`\n${'by what was typed'.padEnd(28)} (ms per keystroke of that kind; share of keystrokes)`);
    for (const [name, t] of [...byBucket.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const k = keystrokesIn.get(name) ?? 1;
      console.log(`${line(name, t, k)}   ${((100 * k) / n).toFixed(0)} %`);
    }
    const types = [...byType.entries()].sort(([, a], [, b]) => b - a).slice(0, 12);
    const all = [...byType.values()].reduce((s, v) => s + v, 0);
    console.log('\nquery time by query type (own time, children excluded)');
    for (const [type, t] of types) {
      console.log(
        `  ${type.padEnd(36)} ${(t / n).toFixed(3).padStart(7)} ms/ks ${((100 * t) / all).toFixed(1).padStart(5)} %`,
      );
    }
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
