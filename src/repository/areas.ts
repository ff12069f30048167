import type { Client, estypes } from '@elastic/elasticsearch';
import type { AreaDoc, AreaLevel, BuildingDoc } from '../elasticsearch/documents.js';
import { aliasName } from '../elasticsearch/indexNames.js';
import type { Searcher } from '../elasticsearch/searchBatcher.js';
import { notFound } from '../http/errors.js';
import { normaliseText } from '../text/normalise.js';
import { existsAndFirstPage, type PageOptions, parentFilter, searchAllPages } from './paging.js';

export interface AreaFilter {
  name?: string | undefined;
  countryCode?: string | undefined;
}

const PAGE_SIZE = 500;
const AREA_SORT: estypes.SortCombinations[] = [{ name: 'asc' }, { id: 'asc' }];
const NO_GEOMETRY: estypes.SearchSourceConfig = { excludes: ['geometry'] };

/** A name filter matches a name that equals it or whose words start with it, ignoring case and accents. */
export function nameFilterClause(name: string): estypes.QueryDslQueryContainer | undefined {
  const key = normaliseText(name);
  if (!key) return undefined;
  return {
    bool: {
      should: [{ term: { name_key: key } }, { prefix: { name_tokens: key } }],
      minimum_should_match: 1,
    },
  };
}

export function areaQuery(level: AreaLevel, filter: AreaFilter, parent?: { field: string; id: string }) {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { level } }];
  if (parent) clauses.push({ term: { [parent.field]: parent.id } });
  const nameClause = filter.name ? nameFilterClause(filter.name) : undefined;
  if (nameClause) clauses.push(nameClause);
  if (filter.countryCode) {
    const code = filter.countryCode.toUpperCase();
    clauses.push({ term: { [code.length === 3 ? 'country_code3' : 'country_code']: code } });
  }
  return { bool: { filter: clauses } } satisfies estypes.QueryDslQueryContainer;
}

export class AreaRepository {
  private readonly areas: string;
  private readonly buildings: string;

  constructor(
    private readonly client: Client,
    private readonly searcher: Searcher,
    indexPrefix: string,
  ) {
    this.areas = aliasName(indexPrefix, 'areas');
    this.buildings = aliasName(indexPrefix, 'buildings');
  }

  private pageOptions(query: estypes.QueryDslQueryContainer, withGeometry: boolean): PageOptions {
    return {
      index: this.areas,
      query,
      sort: AREA_SORT,
      source: withGeometry ? true : NO_GEOMETRY,
      pageSize: PAGE_SIZE,
    };
  }

  /** Top-level lists (countries, cities): no parent to check. */
  list(level: AreaLevel, filter: AreaFilter, withGeometry: boolean): AsyncGenerator<estypes.SearchHit<AreaDoc>[]> {
    return searchAllPages<AreaDoc>(this.client, this.pageOptions(areaQuery(level, filter), withGeometry));
  }

  async get(level: AreaLevel, id: string, withGeometry: boolean): Promise<AreaDoc> {
    const res = await this.searcher.search<AreaDoc>(this.areas, {
      query: { bool: { filter: [{ term: { id } }, { term: { level } }] } },
      size: 1,
      _source: withGeometry ? true : NO_GEOMETRY,
    });
    const doc = res.hits.hits[0]?._source;
    if (!doc) throw notFound(level);
    return doc;
  }

  /**
   * Children of a parent area, with the parent's existence checked in the same round trip (batched), so an
   * unknown parent is a 404 and a parent without children is an empty list.
   */
  async children(
    parent: { level: AreaLevel; id: string; field: string },
    childLevel: AreaLevel,
    filter: AreaFilter,
    withGeometry: boolean,
  ): Promise<AsyncGenerator<estypes.SearchHit<AreaDoc>[]>> {
    const options = this.pageOptions(
      areaQuery(childLevel, filter, { field: parent.field, id: parent.id }),
      withGeometry,
    );
    const [exists, first] = await existsAndFirstPage<AreaDoc>(
      this.searcher,
      this.areas,
      parentFilter(parent.id, parent.level),
      options,
    );
    if (!exists) throw notFound(parent.level);
    return searchAllPages<AreaDoc>(this.client, options, first);
  }

  async suburbBuildings(
    suburbId: string,
    withGeometry: boolean,
  ): Promise<AsyncGenerator<estypes.SearchHit<BuildingDoc>[]>> {
    const options: PageOptions = {
      index: this.buildings,
      query: { bool: { filter: [{ term: { suburb_id: suburbId } }] } },
      sort: [{ id: 'asc' }],
      source: withGeometry ? true : NO_GEOMETRY,
      pageSize: PAGE_SIZE,
    };
    const [exists, first] = await existsAndFirstPage<BuildingDoc>(
      this.searcher,
      this.areas,
      parentFilter(suburbId, 'suburb'),
      options,
    );
    if (!exists) throw notFound('suburb');
    return searchAllPages<BuildingDoc>(this.client, options, first);
  }
}
