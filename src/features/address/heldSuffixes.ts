/**
 * The suffix keys the live addresses index holds (a composite aggregation over `suffix_key`: 22,629 keys on the
 * bulk data, three pages), read once per index generation and rebuilt when the alias points at a new one, like the
 * known city names. Forward ranking asks only for the spellings of a box that some address holds
 * (addressBodies.ts, `rankedSpellings`): of boxKeys' up to twenty spellings of `3` or `14`, the register holds
 * about half (5.4 of 12.1 per tail query of the API bench), and every term sent costs Elasticsearch a look-up.
 */
import type { Client } from '@elastic/elasticsearch';
import { elasticsearchCall } from '../../elasticsearch/failures.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';

const PAGE = 10_000;

export class HeldSuffixRepository {
  private readonly keys: GenerationCache<ReadonlySet<string>>;

  constructor(
    private readonly client: Client,
    generations: IndexGenerations,
  ) {
    this.keys = new GenerationCache(generations, 'addresses', (generation) => this.load(generation));
    this.keys.loadOnNewGeneration();
  }

  /** The suffix keys of the live generation; undefined while they cannot be read (then every spelling is asked). */
  held(): Promise<ReadonlySet<string> | undefined> {
    return this.keys.get().catch(() => undefined);
  }

  private async load(generation: string): Promise<ReadonlySet<string>> {
    const index = concreteIndexes(generation);
    const keys = new Set<string>();
    let after: Record<string, string | number | null> | undefined;
    for (;;) {
      const res = await elasticsearchCall(() =>
        this.client.search({
          index,
          size: 0,
          track_total_hits: false,
          aggs: {
            suffixes: {
              composite: {
                size: PAGE,
                sources: [{ key: { terms: { field: 'suffix_key' } } }],
                ...(after ? { after } : {}),
              },
            },
          },
        }),
      );
      const agg = res.aggregations?.suffixes as
        { buckets: { key: { key: string } }[]; after_key?: Record<string, string | number | null> } | undefined;
      for (const bucket of agg?.buckets ?? []) keys.add(bucket.key.key);
      if (!agg?.after_key || agg.buckets.length < PAGE) break;
      after = agg.after_key;
    }
    return keys;
  }
}
