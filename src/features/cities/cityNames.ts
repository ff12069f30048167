/**
 * The known city names free text is read against, read from the live addresses index once per index
 * generation (a composite aggregation over `city_key`: ~2,500 keys on the bulk data, a few hundred KB) and
 * rebuilt when the alias points at a new generation. The load starts where the generation is first noticed
 * (src/indexes/generations.ts), not on the first forward or lookup request that needs it.
 */
import type { Client } from '@elastic/elasticsearch';
import { elasticsearchCall } from '../../elasticsearch/failures.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { AreaDoc, AreaLevel } from '../../../core/elasticsearch/documents.js';
import { type CityNames, KnownCities } from './knownCities.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';
import { distinctValues } from '../../indexes/paging.js';

const PAGE = 5000;

export class CityNameRepository {
  private readonly cities: GenerationCache<KnownCities>;

  constructor(
    private readonly client: Client,
    generations: IndexGenerations,
    private readonly indexPrefix: string,
  ) {
    this.cities = new GenerationCache(generations, 'addresses', (generation) => this.load(generation));
    this.cities.loadOnNewGeneration();
  }

  known(): Promise<KnownCities> {
    return this.cities.get();
  }

  private async load(generation: string): Promise<KnownCities> {
    // The concrete generation, not the alias: the names and the cache key must describe the same index.
    const index = concreteIndexes(generation);
    const keys = await distinctValues(this.client, index, 'city_key', PAGE);
    return new KnownCities(keys, await this.otherLanguageNames());
  }

  /**
   * The cities named in several languages (Brussels' derived cities carry their municipality's names): a few
   * dozen documents, read with the address keys (an index run swaps both aliases together).
   */
  private async otherLanguageNames(): Promise<CityNames> {
    const res = await elasticsearchCall(() =>
      this.client.search<Pick<AreaDoc, 'name_key' | 'names'>>({
        index: aliasName(this.indexPrefix, 'areas'),
        size: 10_000,
        track_total_hits: false,
        query: {
          bool: { filter: [{ term: { level: 'city' satisfies AreaLevel } }, { exists: { field: 'other_name_keys' } }] },
        },
        _source: ['name_key', 'names'],
      }),
    );
    const names = new Map<string, Record<string, string>>();
    for (const hit of res.hits.hits) {
      if (hit._source?.names) names.set(hit._source.name_key, hit._source.names);
    }
    return names;
  }
}
