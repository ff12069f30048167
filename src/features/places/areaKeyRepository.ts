/**
 * The name keys of the areas type-ahead offers (AreaKeys), read from the live places index once per index generation
 * (the area documents' `name_keys`: 2,203 areas on the bulk data, a few thousand keys) and rebuilt when the alias points
 * at a new generation; the load starts where the generation is first noticed (src/indexes/generations.ts).
 */
import type { Client } from '@elastic/elasticsearch';
import type { PlaceDoc } from '../../../core/elasticsearch/documents.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';
import { searchAllPages } from '../../indexes/paging.js';
import { AreaKeys } from './areaKeys.js';
import { TYPES_WHILE_TYPING } from './placeTypes.js';

const PAGE = 5000;

export class AreaKeyRepository {
  private readonly keys: GenerationCache<AreaKeys>;

  constructor(
    private readonly client: Client,
    generations: IndexGenerations,
  ) {
    this.keys = new GenerationCache(generations, 'places', (generation) => this.load(generation));
    this.keys.loadOnNewGeneration();
  }

  /** The keys of the live generation (loaded on first use of a generation). */
  known(): Promise<AreaKeys> {
    return this.keys.get();
  }

  private async load(generation: string): Promise<AreaKeys> {
    // The concrete generation, not the alias: the keys and the cache key must describe the same index.
    const pages = searchAllPages<Pick<PlaceDoc, 'name_keys'>>(this.client, {
      index: concreteIndexes(generation),
      query: { bool: { filter: [{ terms: { type: [...TYPES_WHILE_TYPING] } }] } },
      sort: [{ id: 'asc' }, { type: 'asc' }],
      source: ['name_keys'],
      pageSize: PAGE,
    });
    const keys: string[] = [];
    for await (const page of pages) {
      for (const hit of page) keys.push(...(hit._source?.name_keys ?? []));
    }
    return new AreaKeys(keys);
  }
}
