/**
 * Reads the hierarchy: areas by id, top-level lists, the children of a parent, a suburb's buildings. Lists
 * are async pages of documents, so a route can stream them; the queries come from areaBodies.ts.
 */
import type { Client } from '@elastic/elasticsearch';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { AreaDoc, AreaLevel, BuildingDoc } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { Searcher } from '../../elasticsearch/searchBatcher.js';
import {
  AREA_PAGE_SIZE,
  AREA_SORT,
  type AreaFilter,
  areaQuery,
  areaSource,
  BUILDING_SORT,
  byIdQuery,
  countryByCodeQuery,
  type ParentRef,
  suburbBuildingsQuery,
} from './areaBodies.js';
import type { Viewport } from '../../geometry/viewport.js';
import {
  type DocPages,
  existsAndFirstPage,
  type PageOptions,
  pagesOfDocs,
  searchAllPages,
} from '../../indexes/paging.js';
import { GenerationCache, type IndexGenerations, indexFor } from '../../indexes/generations.js';

export class AreaRepository {
  private readonly areas: string;
  private readonly buildings: string;

  constructor(
    private readonly client: Client,
    private readonly searcher: Searcher,
    indexPrefix: string,
    generations: IndexGenerations,
  ) {
    this.areas = aliasName(indexPrefix, 'areas');
    this.buildings = aliasName(indexPrefix, 'buildings');
    this.countryIds = new GenerationCache(generations, 'areas', () =>
      Promise.resolve(new Map<string, Promise<string | undefined>>()),
    );
  }

  private areaPages(level: AreaLevel, filter: AreaFilter, withGeometry: boolean, parent?: ParentRef): PageOptions {
    return {
      index: indexFor(this.areas),
      query: areaQuery(level, filter, parent),
      sort: AREA_SORT,
      source: areaSource(withGeometry),
      pageSize: AREA_PAGE_SIZE,
    };
  }

  /** Top-level lists (countries, cities): no parent to check. */
  list(level: AreaLevel, filter: AreaFilter, withGeometry: boolean): DocPages<AreaDoc> {
    return pagesOfDocs(searchAllPages<AreaDoc>(this.client, this.areaPages(level, filter, withGeometry)));
  }

  async get(level: AreaLevel, id: string, withGeometry: boolean): Promise<AreaDoc> {
    const res = await this.searcher.search<AreaDoc>(indexFor(this.areas), {
      query: byIdQuery(id, level),
      size: 1,
      _source: areaSource(withGeometry),
    });
    const doc = res.hits.hits[0]?._source;
    if (!doc) throw new NotFoundError(level);
    return doc;
  }

  /**
   * The id of the country with this ISO 3166-1 alpha-2 code, or undefined. Remembered per area index generation
   * (an id and its absence alike): a country indexed by a later run is found as soon as its generation is live.
   */
  async countryIdOf(code: string): Promise<string | undefined> {
    const ids = await this.countryIds.get();
    let id = ids.get(code);
    if (!id) {
      id = this.searcher
        .search<Pick<AreaDoc, 'id'>>(this.areas, { query: countryByCodeQuery(code), size: 1, _source: ['id'] })
        .then((res) => res.hits.hits[0]?._source?.id);
      ids.set(code, id);
      id.catch(() => ids.delete(code));
    }
    return id;
  }

  /** Country code -> its id (or undefined: none), for the live area generation. */
  private readonly countryIds: GenerationCache<Map<string, Promise<string | undefined>>>;

  /**
   * Children of a parent area, with the parent's existence checked in the same round trip (batched), so an
   * unknown parent is a 404 and a parent without children is an empty list.
   */
  async children(
    parent: ParentRef,
    childLevel: AreaLevel,
    filter: AreaFilter,
    withGeometry: boolean,
  ): Promise<DocPages<AreaDoc>> {
    const options = this.areaPages(childLevel, filter, withGeometry, parent);
    return this.childPages<AreaDoc>(byIdQuery(parent.id, parent.level), parent.level, options);
  }

  async suburbBuildings(
    suburbId: string,
    viewport: Viewport | undefined,
    withGeometry: boolean,
  ): Promise<DocPages<BuildingDoc>> {
    const options: PageOptions = {
      index: indexFor(this.buildings),
      query: suburbBuildingsQuery(suburbId, viewport),
      sort: BUILDING_SORT,
      source: areaSource(withGeometry),
      pageSize: AREA_PAGE_SIZE,
    };
    return this.childPages<BuildingDoc>(byIdQuery(suburbId, 'suburb'), 'suburb', options);
  }

  private async childPages<T>(parentQuery: ParentQuery, parentLevel: AreaLevel, options: PageOptions) {
    const [exists, first] = await existsAndFirstPage<T>(this.searcher, indexFor(this.areas), parentQuery, options);
    if (!exists) throw new NotFoundError(parentLevel);
    return pagesOfDocs(searchAllPages<T>(this.client, options, first));
  }
}

type ParentQuery = ReturnType<typeof byIdQuery>;
