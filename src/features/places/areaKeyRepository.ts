/**
 * The name keys of the areas type-ahead offers (AreaKeys), read from the live places index once per index generation
 * (the area documents' `name_keys` with their `qualifier_keys`: 2,203 areas on the bulk data, a few thousand keys)
 * and rebuilt when the alias points at a new generation; the load starts where the generation is first noticed
 * (src/indexes/generations.ts). With them, the cities whose names have several words, by their later words
 * (LaterWordAreas, AreaKeys.laterWords).
 */
import type { Client } from '@elastic/elasticsearch';
import type { PlaceDoc } from '../../../core/elasticsearch/documents.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';
import { searchAllPages } from '../../indexes/paging.js';
import { AreaKeys, type AreaNames } from './areaKeys.js';
import { LaterWordAreas } from './laterWordAreas.js';
import { PLACE_SOURCE, type PlaceHit } from './placeQueries.js';
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
    const pages = searchAllPages<PlaceHit & Pick<PlaceDoc, 'name_keys' | 'qualifier_keys'>>(this.client, {
      index: concreteIndexes(generation),
      query: { bool: { filter: [{ terms: { type: [...TYPES_WHILE_TYPING] } }] } },
      sort: [{ id: 'asc' }, { type: 'asc' }],
      source: ['name_keys', 'qualifier_keys', ...PLACE_SOURCE],
      pageSize: PAGE,
    });
    const areas: AreaNames[] = [];
    const cities: { keys: string[]; area: PlaceHit }[] = [];
    for await (const page of pages) {
      for (const hit of page) {
        if (!hit._source) continue;
        const { name_keys: names = [], qualifier_keys: qualifiers = [], ...area } = hit._source;
        areas.push({ keys: names, qualifiers });
        if (area.type === 'city' && names.some((k) => k.includes(' '))) cities.push({ keys: names, area });
      }
    }
    return new AreaKeys(areas, new LaterWordAreas(cities));
  }
}
