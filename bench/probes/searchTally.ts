/**
 * `npm run bench:searches -- [--queries 200] [--seed 42] [--prefix bench-bulk-] [--scenario search|tail|places]
 *   [--profile]`
 *
 * What the search box asks Elasticsearch, load-independently: drawn free-text queries (benchQueries.ts
 * `freeTextPaths`, the addresses `sampleAddresses` draws) go one at a time through the search box wired as the app
 * wires it (SearchBox, FreeTextSearch, the repositories, a SearchBatcher), and every search is tallied by index and
 * lane on its way to the batcher, with the `took` Elasticsearch reports for it. Prints the searches and the summed
 * `took` per query, per index and lane, and how many queries sent any fuzzy address search; the size of what was
 * sent: JSON bytes and leaf clauses (a `terms` clause counts one per value), and the JSON bytes of the answers. `--profile` sends every search with
 * Elasticsearch's profiler on and adds the time its shards spent in the query (rewrite, query, collectors), in
 * microseconds: finer than `took`, which is whole milliseconds. Counts do not move with the machine's load
 * (compare two checkouts by running this in each); `took` and the profile do, a little.
 * Needs ELASTICSEARCH_URL with the `--prefix` data loaded; it only reads.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { type Lane, SearchBatcher, type Searcher } from '../../src/elasticsearch/searchBatcher.js';
import { createServiceLogger } from '../../src/logger.js';
import { buildSearchServices } from '../../src/wiring/services.js';
import { freeTextPaths, freeTextTailPaths, placePaths, sampleAddresses } from '../support/benchQueries.js';
import { BENCH_SEED, BULK_PREFIX, elasticsearchUrlFromEnv } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: String(BENCH_SEED) },
    prefix: { type: 'string', default: BULK_PREFIX },
    /**
     * `search`: free text with a house number (the API bench's "search free text"); `tail`: the same addresses with a
     * house-number tail ("search free text with a tail"); `places`: place names.
     */
    scenario: { type: 'string', default: 'search' },
    profile: { type: 'boolean', default: false },
  },
});

interface Tally {
  searches: number;
  tookMs: number;
  bytes: number;
  answerBytes: number;
  clauses: number;
  profileUs: number;
}

const EMPTY: Tally = { searches: 0, tookMs: 0, bytes: 0, answerBytes: 0, clauses: 0, profileUs: 0 };

/** Leaf clauses of a query: a `terms` clause counts one per value, every other leaf (term, fuzzy, range…) one. */
function leafClauses(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + leafClauses(item), 0);
  if (node === null || typeof node !== 'object') return 0;
  let sum = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'terms')
      sum += Object.values(value as object).reduce((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
    else if (['term', 'fuzzy', 'range', 'prefix', 'match', 'match_all', 'exists', 'geo_distance'].includes(key))
      sum += 1;
    else if (key !== 'sort' && key !== '_source') sum += leafClauses(value);
  }
  return sum;
}

interface ProfiledShard {
  searches: { query: { time_in_nanos: number }[]; rewrite_time: number; collector: { time_in_nanos: number }[] }[];
}

/** Nanoseconds the shards spent rewriting, running and collecting the query (the profile's top-level nodes). */
function profileNanos(profile: { shards: ProfiledShard[] } | undefined): number {
  let ns = 0;
  for (const shard of profile?.shards ?? []) {
    for (const s of shard.searches) {
      ns += s.rewrite_time;
      for (const q of s.query) ns += q.time_in_nanos;
      for (const c of s.collector) ns += c.time_in_nanos;
    }
  }
  return ns;
}

async function main() {
  const url = elasticsearchUrlFromEnv();
  const prefix = args.prefix;
  const client = createElasticsearchClient({ url, requestTimeoutMs: 60_000 });
  try {
    const batcher = new SearchBatcher(client, 16);
    const tallies = new Map<string, Tally>();
    const searcher: Searcher = {
      async search(index, body, lane: Lane = 'exact') {
        const sent = args.profile ? { ...body, profile: true } : body;
        const res = await batcher.search<never>(index, sent, lane);
        const key = `${index.slice(prefix.length)} ${lane}`;
        const tally = tallies.get(key) ?? { ...EMPTY };
        tally.searches += 1;
        tally.tookMs += res.took;
        tally.bytes += JSON.stringify(body).length;
        if (!args.profile) tally.answerBytes += JSON.stringify(res).length;
        tally.clauses += leafClauses(body.query);
        tally.profileUs += profileNanos(res.profile) / 1000;
        tallies.set(key, tally);
        return res;
      },
    };
    const logger = createServiceLogger('silent');
    const box = buildSearchServices({ client, indexPrefix: prefix, searcher, logger }).searchBox;
    const drawn = await sampleAddresses(client, prefix, Number(args.queries), Number(args.seed));
    const paths =
      args.scenario === 'places'
        ? placePaths(drawn)
        : args.scenario === 'tail'
          ? freeTextTailPaths(drawn)
          : freeTextPaths(drawn);
    const texts = paths.map((path) => new URLSearchParams(path.slice(path.indexOf('?'))).get('q') ?? '');
    // Warm the city names (read once per generation) so the first query's count is like the others'.
    await box.search({ q: texts[0] ?? '', size: 10 });
    tallies.clear();

    let withFuzzyAddress = 0;
    const fuzzyExamples: string[] = [];
    for (const q of texts) {
      const before = tallies.get('addresses fuzzy')?.searches ?? 0;
      await box.search({ q, size: 10 });
      if ((tallies.get('addresses fuzzy')?.searches ?? 0) > before && ++withFuzzyAddress <= 5) fuzzyExamples.push(q);
    }

    const n = texts.length;
    const rows = [...tallies.entries()].sort(([a], [b]) => a.localeCompare(b));
    const total = rows.reduce(
      (sum, [, t]) => ({
        searches: sum.searches + t.searches,
        tookMs: sum.tookMs + t.tookMs,
        bytes: sum.bytes + t.bytes,
        answerBytes: sum.answerBytes + t.answerBytes,
        clauses: sum.clauses + t.clauses,
        profileUs: sum.profileUs + t.profileUs,
      }),
      { ...EMPTY },
    );
    const perQuery = (value: number, width: number) => (value / n).toFixed(2).padStart(width);
    const line = (name: string, t: Tally) =>
      `${name.padEnd(20)} ${String(t.searches).padStart(8)} ${perQuery(t.searches, 9)} ` +
      `${String(t.tookMs).padStart(9)} ${perQuery(t.tookMs, 11)} ${perQuery(t.bytes, 11)} ${perQuery(t.clauses, 13)}` +
      (args.profile ? ` ${perQuery(t.profileUs, 14)}` : ` ${perQuery(t.answerBytes, 14)}`);
    console.log(`${n} ${args.scenario} queries (seed ${args.seed}, ${prefix}), load ${loadavg()[0]!.toFixed(1)}`);
    console.log(
      `${'index lane'.padEnd(20)} ${'searches'.padStart(8)} ${'per query'.padStart(9)} ` +
        `${'took ms'.padStart(9)} ${'took/query'.padStart(11)} ${'bytes/query'.padStart(11)} ` +
        `${'clauses/query'.padStart(13)} ${(args.profile ? 'profile µs/q' : 'answer bytes/q').padStart(14)}`,
    );
    for (const [name, tally] of rows) console.log(line(name, tally));
    console.log(line('all', total));
    console.log(
      `queries that sent a fuzzy address search: ${withFuzzyAddress} (${((100 * withFuzzyAddress) / n).toFixed(1)} %)`,
    );
    for (const q of fuzzyExamples) console.log(`  e.g. ${q}`);
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
