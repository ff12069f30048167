/**
 * The suffix keys the live addresses index holds (a composite aggregation over `suffix_key`: 22,629 keys on the
 * bulk data, three pages), read once per index generation and rebuilt when the alias points at a new one, like the
 * known city names. Forward ranking asks only for the spellings of a box that some address holds
 * (addressBodies.ts, `rankedSpellings`): of boxKeys' up to twenty spellings of `3` or `14`, the register holds
 * about half (5.4 of 12.1 per tail query of the API bench), and every term sent costs Elasticsearch a look-up.
 */
import type { Client } from '@elastic/elasticsearch';
import { distinctValues } from '../../indexes/paging.js';
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
    return new Set(await distinctValues(this.client, concreteIndexes(generation), 'suffix_key', PAGE));
  }
}
