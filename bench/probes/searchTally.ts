/**
 * `npm run bench:searches -- [--queries 200] [--seed 42] [--prefix bench-bulk-] [--scenario search|tail|places]`
 *
 * What the search box asks Elasticsearch, load-independently: drawn free-text queries (benchQueries.ts
 * `freeTextPaths`, the addresses `sampleAddresses` draws) go one at a time through the search box wired as the app
 * wires it (SearchBox, FreeTextSearch, the repositories, a SearchBatcher), and every search is tallied by index and
 * lane on its way to the batcher, with the `took` Elasticsearch reports for it. Prints the searches and the summed
 * `took` per query, per index and lane, and how many queries sent any fuzzy address search. Counts do not move
 * with the machine's load (compare two checkouts by running this in each); `took` does, a little.
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
  },
});

interface Tally {
  searches: number;
  tookMs: number;
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
        const res = await batcher.search<never>(index, body, lane);
        const key = `${index.slice(prefix.length)} ${lane}`;
        const tally = tallies.get(key) ?? { searches: 0, tookMs: 0 };
        tally.searches += 1;
        tally.tookMs += res.took;
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
      (sum, [, t]) => ({ searches: sum.searches + t.searches, tookMs: sum.tookMs + t.tookMs }),
      {
        searches: 0,
        tookMs: 0,
      },
    );
    const line = (name: string, t: Tally) =>
      `${name.padEnd(20)} ${String(t.searches).padStart(8)} ${(t.searches / n).toFixed(2).padStart(9)} ` +
      `${String(t.tookMs).padStart(9)} ${(t.tookMs / n).toFixed(2).padStart(11)}`;
    console.log(`${n} ${args.scenario} queries (seed ${args.seed}, ${prefix}), load ${loadavg()[0]!.toFixed(1)}`);
    console.log(
      `${'index lane'.padEnd(20)} ${'searches'.padStart(8)} ${'per query'.padStart(9)} ` +
        `${'took ms'.padStart(9)} ${'took/query'.padStart(11)}`,
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
