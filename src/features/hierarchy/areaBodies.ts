/**
 * Where the hierarchy queries are built: pure functions from a level, a parent and the name / country-code
 * filters to Elasticsearch queries on the areas and buildings indexes.
 */
import type { estypes } from '@elastic/elasticsearch';
import { type AreaLevel, PARENT_ID_FIELD } from '../../../core/elasticsearch/documents.js';
import { normaliseText } from '../../../core/text/normalise.js';
import { type Viewport, viewportClause } from '../../geometry/viewport.js';

export interface AreaFilter {
  name?: string | undefined;
  countryCode?: string | undefined;
  viewport?: Viewport | undefined;
}

/** Lists come back by name; the id is unique, so paging with search_after never skips or repeats. */
export const AREA_SORT: estypes.SortCombinations[] = [{ name: 'asc' }, { id: 'asc' }];
export const BUILDING_SORT: estypes.SortCombinations[] = [{ id: 'asc' }];
export const AREA_PAGE_SIZE = 500;

/** What to fetch of an area or building: the whole document, or everything but the (large) geometry. */
export function areaSource(withGeometry: boolean): estypes.SearchSourceConfig {
  return withGeometry ? true : { excludes: ['geometry'] };
}

/** The document with this id (and level, on the areas index): a parent's existence check, or a single fetch. */
export function byIdQuery(id: string, level?: AreaLevel): estypes.QueryDslQueryContainer {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { id } }];
  if (level) filter.push({ term: { level } });
  return { bool: { filter } };
}

/** Areas in the country with this ISO 3166-1 alpha-2 or alpha-3 code (any case). */
function countryCodeTerm(code: string): estypes.QueryDslQueryContainer {
  const upper = code.toUpperCase();
  return { term: { [upper.length === 3 ? 'country_code3' : 'country_code']: upper } };
}

/** The country with this ISO 3166-1 code. */
export function countryByCodeQuery(code: string): estypes.QueryDslQueryContainer {
  return { bool: { filter: [{ term: { level: 'country' } }, countryCodeTerm(code)] } };
}

/**
 * A name filter matches a name that equals it or whose words start with it, ignoring case and accents, in any of
 * the area's languages (`Ixelles` and `Elsene` both find Elsene/Ixelles).
 */
export function nameFilterClause(name: string): estypes.QueryDslQueryContainer | undefined {
  const key = normaliseText(name);
  if (!key) return undefined;
  return {
    bool: {
      should: [
        { term: { name_key: key } },
        { prefix: { name_tokens: key } },
        { term: { other_name_keys: key } },
        { prefix: { other_name_tokens: key } },
      ],
      minimum_should_match: 1,
    },
  };
}

/** The parent an area list is narrowed to: its level decides which id field the children carry. */
export interface ParentRef {
  level: AreaLevel;
  id: string;
}

export function areaQuery(level: AreaLevel, filter: AreaFilter, parent?: ParentRef) {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { level } }];
  if (parent) clauses.push({ term: { [PARENT_ID_FIELD[parent.level]]: parent.id } });
  const nameClause = filter.name ? nameFilterClause(filter.name) : undefined;
  if (nameClause) clauses.push(nameClause);
  if (filter.countryCode) clauses.push(countryCodeTerm(filter.countryCode));
  if (filter.viewport) clauses.push(...viewportClause(filter.viewport));
  return { bool: { filter: clauses } } satisfies estypes.QueryDslQueryContainer;
}

/** Every building of one suburb, or those whose footprint's envelope intersects the viewport. */
export function suburbBuildingsQuery(suburbId: string, viewport?: Viewport): estypes.QueryDslQueryContainer {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { [PARENT_ID_FIELD.suburb]: suburbId } }];
  if (viewport) clauses.push(...viewportClause(viewport));
  return { bool: { filter: clauses } };
}
