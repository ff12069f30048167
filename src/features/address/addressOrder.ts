/**
 * The one order of address lists (street lookup, a building's addresses, reverse geocoding's ties) and its paging:
 * defined here once, used by the request bodies (addressBodies.ts, reverseBodies.ts) and by the repository that
 * re-sorts hits it gathered from several requests.
 */
import type { estypes } from '@elastic/elasticsearch';

/** Results in a stable order: city, postcode, number, suffix (id breaks the last ties). */
export const STABLE_SORT: estypes.SortCombinations[] = [
  { city_key: 'asc' },
  { postcode_key: 'asc' },
  { house_number: 'asc' },
  { suffix_key: 'asc' },
  { id: 'asc' },
];

/** Up to this many matches come back from one request; more are paged with search_after. */
export const LOOKUP_PAGE_SIZE = 1000;

/**
 * Orders hits of a request sorted by `leading` other keys and then STABLE_SORT in the stable order alone, by
 * the sort values Elasticsearch returned with them: the order is defined once, by STABLE_SORT.
 */
export function byStableSort(leading: number) {
  return (a: estypes.SearchHit<unknown>, b: estypes.SearchHit<unknown>): number => {
    const x = a.sort ?? [];
    const y = b.sort ?? [];
    for (let i = leading; i < leading + STABLE_SORT.length; i++) {
      const p = x[i];
      const q = y[i];
      if (p === q) continue;
      if (p === undefined || p === null) return -1;
      if (q === undefined || q === null) return 1;
      return p < q ? -1 : 1;
    }
    return 0;
  };
}
