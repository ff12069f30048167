/**
 * `npx tsx bench/probes/refineAgreement.ts [--prefix bench-bulk-] [--queries 2000] [--seed 42]`
 *
 * Does a street keystroke answered from a complete shorter answer (src/features/autocomplete/completeStreets.ts)
 * get what the search would have given, on the bulk data? The bench's keystrokes (`npm run bench`'s autocomplete
 * scenarios, drawn the same seeded way: every prefix of a drawn street's name, then street and number), without and
 * with a focus, go in order through the repository as the app wires it and through one without the complete answers;
 * every answer must be the same. Prints how many street keystrokes were compared, how many were answered without a
 * search, the streets searches each way, each disagreement (at most 25) and the load average. Only reads; run it
 * under `flock /work/heavy.lock` on the shared machine.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { type Lane, SearchBatcher, type Searcher } from '../../src/elasticsearch/searchBatcher.js';
import { AutocompleteRepository } from '../../src/features/autocomplete/autocompleteRepository.js';
import { CompleteStreetCache } from '../../src/features/autocomplete/completeStreetCache.js';
import { parseAutocompleteQuery } from '../../src/features/autocomplete/autocompleteInput.js';
import { IndexGenerations } from '../../src/indexes/generations.js';
import { keystrokePaths, sampleAddresses } from '../support/benchQueries.js';
import { BENCH_SEED, BULK_PREFIX, elasticsearchUrlFromEnv } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: BULK_PREFIX },
    queries: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(BENCH_SEED) },
  },
});

const SHOWN = 25;
const log = (msg: string) => process.stderr.write(`[refine-agreement] ${msg}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const client = createElasticsearchClient({ url: elasticsearchUrlFromEnv(), requestTimeoutMs: 60_000 });
const batcher = new SearchBatcher(client, 16);

function repository(complete?: CompleteStreetCache) {
  const counted = { streetSearches: 0 };
  const searcher: Searcher = {
    search(index, body, lane: Lane = 'exact') {
      if (index.endsWith('streets')) counted.streetSearches++;
      return batcher.search(index, body, lane);
    },
  };
  return { repo: new AutocompleteRepository(searcher, args.prefix, complete), counted };
}

log(`load average ${load()}`);
const addresses = await sampleAddresses(client, args.prefix, Number(args.queries), Number(args.seed));
const plain = repository();
const refining = repository(new CompleteStreetCache(new IndexGenerations(client, args.prefix)));
let compared = 0;
const disagreements: string[] = [];
for (const focus of [false, true]) {
  for (const path of keystrokePaths(addresses, { focus })) {
    const params = new URL(path, 'http://probe').searchParams;
    const lat = params.get('lat');
    const lon = params.get('lon');
    const q = parseAutocompleteQuery({
      q: params.get('q')!,
      size: Number(params.get('size')),
      ...(lat && lon && { lat: Number(lat), lon: Number(lon) }),
    });
    if (q?.kind !== 'street') continue;
    const [expected, got] = [await plain.repo.suggest(q), await refining.repo.suggest(q)];
    compared++;
    if (!isDeepStrictEqual(expected, got))
      disagreements.push(`${path}: ${got.length} suggestions, not ${expected.length}`);
  }
}
const saved = plain.counted.streetSearches - refining.counted.streetSearches;
log(`street keystrokes compared: ${compared}; disagreements: ${disagreements.length}`);
for (const d of disagreements.slice(0, SHOWN)) log(`  ${d}`);
log(
  `streets searches: ${plain.counted.streetSearches} without the complete answers, ${refining.counted.streetSearches} ` +
    `with them (${saved} keystrokes answered without a search, ${((100 * saved) / compared).toFixed(1)} %)`,
);
log(`load average ${load()}`);
await client.close();
process.exitCode = disagreements.length > 0 ? 1 : 0;
