/**
 * Where the street lookup and forward-geocoding queries are built: pure functions from a parsed request
 * to Elasticsearch request bodies, so every tier is unit-testable without a cluster.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { StreetQueryBody } from '../schemas/requests.js';
import { parseHouseNumber, parseSuffix, suffixKey } from '../text/houseNumber.js';
import { normaliseStreet, normaliseText, streetKey } from '../text/normalise.js';
import { normalisePostcode } from '../text/postcode.js';

export interface StreetQuery {
  /** streetKey() of the input, "" when the query is postcode + number only. */
  streetKey: string;
  /** normaliseStreet() of the input, for the fuzzy tier. */
  streetText: string;
  /** The raw street as typed, to tell an exact spelling from a normalised match. */
  streetRaw: string;
  houseNumber: number;
  /** Set when the client named a suffix (in `number` or `suffix`): narrows lookups, ranks forward results. */
  suffixKey: string | undefined;
  postcodeKey: string | undefined;
  cityKey: string | undefined;
  focus: { lat: number; lon: number } | undefined;
}

export type ParseResult = { ok: true; query: StreetQuery } | { ok: false; path: string; message: string };

export function parseStreetQuery(body: StreetQueryBody): ParseResult {
  const number = parseHouseNumber(body.number);
  if (!number) return { ok: false, path: 'body.number', message: `"${body.number}" is not a house number` };
  let suffix = number.letter || number.addition ? suffixKey(number) : undefined;
  if (body.suffix) suffix = suffixKey(parseSuffix(body.suffix));
  const streetRaw = body.streetname ?? '';
  const postcodeKey = body.postcode ? normalisePostcode(body.postcode) : undefined;
  const cityKey = body.city ? normaliseText(body.city) : undefined;
  return {
    ok: true,
    query: {
      streetKey: streetRaw ? streetKey(streetRaw) : '',
      streetText: streetRaw ? normaliseStreet(streetRaw) : '',
      streetRaw,
      houseNumber: number.number,
      suffixKey: suffix,
      postcodeKey: postcodeKey || undefined,
      cityKey: cityKey || undefined,
      focus: body.lat !== undefined && body.lon !== undefined ? { lat: body.lat, lon: body.lon } : undefined,
    },
  };
}

export const LOOKUP_SOURCE = ['id', 'streetname', 'number', 'suffix', 'city', 'postcode', 'location'];
export const FORWARD_SOURCE = [...LOOKUP_SOURCE, 'suburb_id', 'building_id', 'street_key', 'suffix_key', 'postcode_key'];

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

const term = (field: string, value: string | number): estypes.QueryDslQueryContainer => ({ term: { [field]: value } });

function narrowing(q: StreetQuery, { postcodeAsFilter }: { postcodeAsFilter: boolean }) {
  const filters: estypes.QueryDslQueryContainer[] = [];
  if (q.cityKey) filters.push(term('city_key', q.cityKey));
  if (q.postcodeKey && postcodeAsFilter) filters.push(term('postcode_key', q.postcodeKey));
  return filters;
}

/**
 * The fuzzy street clause: edit distance scaled to the key's length, first character protected,
 * so a short name never drifts to an unrelated one.
 */
export function fuzzyStreetClause(q: StreetQuery): estypes.QueryDslQueryContainer {
  const length = q.streetKey.length;
  const fuzziness = length <= 4 ? 0 : length <= 8 ? 1 : 2;
  return {
    bool: {
      should: [
        { fuzzy: { street_key: { value: q.streetKey, fuzziness, prefix_length: 1, transpositions: true, boost: 2 } } },
        {
          match: {
            street_text: {
              query: q.streetText,
              fuzziness: 'AUTO',
              prefix_length: 1,
              operator: 'and',
            },
          },
        },
      ],
      minimum_should_match: 1,
    },
  };
}

/** Tier 1 of /lookup/street: exact normalised street (or postcode) + number, every suffix unless one was named. */
export function exactLookupRequest(q: StreetQuery, searchAfter?: estypes.SortResults): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [term('house_number', q.houseNumber), ...narrowing(q, { postcodeAsFilter: true })];
  if (q.streetKey) filter.push(term('street_key', q.streetKey));
  if (q.suffixKey !== undefined) filter.push(term('suffix_key', q.suffixKey));
  return {
    query: { bool: { filter } },
    sort: STABLE_SORT,
    size: LOOKUP_PAGE_SIZE,
    _source: LOOKUP_SOURCE,
    track_total_hits: false,
    ...(searchAfter ? { search_after: searchAfter } : {}),
  };
}

/** Tier 2 of /lookup/street: the best-scoring fuzzy street; the caller keeps only hits of the top street. */
export function fuzzyLookupRequest(q: StreetQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [term('house_number', q.houseNumber), ...narrowing(q, { postcodeAsFilter: true })];
  if (q.suffixKey !== undefined) filter.push(term('suffix_key', q.suffixKey));
  return {
    query: { bool: { must: [fuzzyStreetClause(q)], filter } },
    sort: ['_score', ...STABLE_SORT],
    size: LOOKUP_PAGE_SIZE,
    _source: [...LOOKUP_SOURCE, 'street_key'],
    track_total_hits: false,
  };
}

function forwardRanking(q: StreetQuery): estypes.QueryDslQueryContainer[] {
  const should: estypes.QueryDslQueryContainer[] = [
    // Exact suffix beats another suffix of the same number; a bare number prefers the address without one.
    { term: { suffix_key: { value: q.suffixKey ?? '', boost: 4 } } },
  ];
  if (q.postcodeKey) should.push({ term: { postcode_key: { value: q.postcodeKey, boost: 8 } } });
  return should;
}

function forwardSort(q: StreetQuery): estypes.SortCombinations[] {
  const sort: estypes.SortCombinations[] = ['_score'];
  if (q.focus) sort.push({ _geo_distance: { location: q.focus, order: 'asc', unit: 'm' } });
  return [...sort, ...STABLE_SORT];
}

/** Tier 1 of /geocode/forward: exact street key (or postcode) and number; suffix and postcode rank. */
export function exactForwardRequest(q: StreetQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [term('house_number', q.houseNumber), ...narrowing(q, { postcodeAsFilter: !q.streetKey })];
  if (q.streetKey) filter.push(term('street_key', q.streetKey));
  return {
    query: { bool: { filter, should: forwardRanking(q) } },
    sort: forwardSort(q),
    size: 1,
    _source: FORWARD_SOURCE,
    track_total_hits: false,
  };
}

/** Tier 2 of /geocode/forward: fuzzy street and the exact number. */
export function fuzzyForwardRequest(q: StreetQuery): estypes.SearchRequest {
  return {
    query: {
      bool: {
        must: [fuzzyStreetClause(q)],
        filter: [term('house_number', q.houseNumber), ...narrowing(q, { postcodeAsFilter: false })],
        should: forwardRanking(q),
      },
    },
    sort: forwardSort(q),
    size: 1,
    _source: FORWARD_SOURCE,
    track_total_hits: false,
  };
}

/**
 * Tier 3 of /geocode/forward: the number does not exist on the street, so the nearest existing number below
 * and above it (two sorted one-hit searches: no scripts needed). `streetFilter` is the street the earlier
 * tiers identified.
 */
export function nearestNumberRequests(q: StreetQuery, streetFilter: estypes.QueryDslQueryContainer): estypes.SearchRequest[] {
  const base = [streetFilter, ...narrowing(q, { postcodeAsFilter: false })];
  const side = (op: 'lt' | 'gt'): estypes.SearchRequest => ({
    query: { bool: { filter: [...base, { range: { house_number: { [op]: q.houseNumber } } }], should: forwardRanking(q) } },
    sort: [{ house_number: op === 'lt' ? 'desc' : 'asc' }, '_score', ...STABLE_SORT.slice(0, 2), { suffix_key: 'asc' }, { id: 'asc' }],
    size: 1,
    _source: FORWARD_SOURCE,
    track_total_hits: false,
  });
  return [side('lt'), side('gt')];
}

/** Which street the fuzzy tier settled on, expressed as a filter for the nearest-number tier. */
export function streetKeyFilter(key: string): estypes.QueryDslQueryContainer {
  return term('street_key', key);
}
