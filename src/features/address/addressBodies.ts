/**
 * Where the street lookup and forward-geocoding queries are built: pure functions from a StreetQuery
 * (streetQuery.ts) to Elasticsearch request bodies on the addresses index, so every tier is unit-testable
 * without a cluster. Which tier runs when is decided in addressRepository.ts.
 */
import type { estypes } from '@elastic/elasticsearch';
import { FORWARD_SOURCE, type ForwardHit, LOOKUP_SOURCE, type LookupHit } from './addressFields.js';
import { typoTolerance } from '../../../core/text/readingRules.js';
import { boxKeys } from '../../../core/text/houseNumber.js';
import type { StreetQuery } from './streetRequest.js';
import { LOOKUP_PAGE_SIZE, STABLE_SORT } from './addressOrder.js';

export { FORWARD_SOURCE, type ForwardHit, LOOKUP_SOURCE, type LookupHit };

/** A named suffix: as written, or a Belgian box in any of the register's spellings (boxKeys). */
const suffixFilter = (key: string): estypes.QueryDslQueryContainer => ({ terms: { suffix_key: boxKeys(key) } });

const term = (field: string, value: string | number): estypes.QueryDslQueryContainer => ({
  term: { [field]: value },
});

export function addressByIdRequest(id: string): estypes.SearchRequest {
  return { query: { bool: { filter: [term('id', id)] } }, size: 1 };
}

/** Every address of one building (paged in STABLE_SORT order). */
export function buildingAddressesQuery(buildingId: string): estypes.QueryDslQueryContainer {
  return { bool: { filter: [term('building_id', buildingId)] } };
}

/**
 * The exactly-named street in any of its languages: its key (or its key and the alternative readings of an
 * abbreviation) as the primary name or as one of the other-language names (`Rue Neuve` = `Nieuwstraat`).
 */
export function exactStreetFilter(q: StreetQuery): estypes.QueryDslQueryContainer {
  const keys = [q.streetKey, ...q.streetKeyAlternatives];
  return {
    bool: {
      should: [{ terms: { street_key: keys } }, { terms: { other_street_keys: keys } }],
      minimum_should_match: 1,
    },
  };
}

/** With alternative readings, the primary one (in any language) wins over any suffix or postcode preference. */
function primaryReading(q: StreetQuery): estypes.QueryDslQueryContainer[] {
  return q.streetKeyAlternatives.length === 0
    ? []
    : [
        { term: { street_key: { value: q.streetKey, boost: 16 } } },
        { term: { other_street_keys: { value: q.streetKey, boost: 16 } } },
      ];
}

function narrowing(q: StreetQuery, { postcodeAsFilter }: { postcodeAsFilter: boolean }) {
  const filters: estypes.QueryDslQueryContainer[] = [];
  if (q.cityKey) filters.push(term('city_key', q.cityKey));
  if (q.countryId) filters.push(term('country_id', q.countryId));
  if (q.postcodeKey && postcodeAsFilter) filters.push(term('postcode_key', q.postcodeKey));
  return filters;
}

/** Edit distance the fuzzy tier allows for a normalised street key (the rule: typoTolerance). */
export function streetFuzziness(key: string): 0 | 1 | 2 {
  return typoTolerance(key.length);
}

/**
 * The edit distances the fuzzy tiers try, in order: one edit first, two only when one found nothing. A
 * one-edit search costs Elasticsearch a tenth of a two-edit one (measured on the bulk index: 0.2-0.4 vs
 * 2.3-3.3 ms, nearly all of it the rewrite over the street-key dictionary), most typos are one edit, and a
 * one-edit key outranks every two-edit key anyway (measured: the same top answer for 299 of 300 one-typo
 * queries, the quality eval unchanged).
 */
export function fuzzyEditStages(key: string): (0 | 1 | 2)[] {
  const max = streetFuzziness(key);
  return max === 2 ? [1, 2] : [max];
}

/**
 * The fuzzy street clause: the whole normalised key within an edit distance scaled to its length (at most
 * `maxEdits`), first letter protected. Matching the key as one string (not word by word) bounds the distance
 * of the whole name, so a street 3+ edits away from every real one matches nothing; closer keys score higher.
 */
export function fuzzyStreetClause(
  q: StreetQuery,
  maxEdits: number = streetFuzziness(q.streetKey),
): estypes.QueryDslQueryContainer {
  const fuzzy = (field: string): estypes.QueryDslQueryContainer => ({
    fuzzy: {
      [field]: {
        value: q.streetKey,
        fuzziness: Math.min(maxEdits, streetFuzziness(q.streetKey)),
        prefix_length: 1,
        transpositions: true,
        max_expansions: 50,
      },
    },
  });
  // The closer of the primary and the other-language names scores: a typo in a French name finds the street.
  return { dis_max: { queries: [fuzzy('street_key'), fuzzy('other_street_keys')] } };
}

/**
 * Whether the exactly-named street exists (within the city/postcode narrowing): when it does, a missing
 * number is answered on that street (forward: the nearest number; lookup: nothing), never on a look-alike.
 */
export function streetExistsRequest(q: StreetQuery): estypes.SearchRequest {
  return {
    query: { bool: { filter: [exactStreetFilter(q), ...narrowing(q, { postcodeAsFilter: true })] } },
    size: 1,
    _source: false,
    track_total_hits: false,
  };
}

/** Tier 1 of /lookup/street: exact normalised street (or postcode) + number, every suffix unless one was named. */
export function exactLookupRequest(q: StreetQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [
    term('house_number', q.houseNumber),
    ...narrowing(q, { postcodeAsFilter: true }),
  ];
  if (q.streetKey) filter.push(exactStreetFilter(q));
  if (q.suffixKey !== undefined) filter.push(suffixFilter(q.suffixKey));
  return {
    query: { bool: { filter } },
    sort: STABLE_SORT,
    size: LOOKUP_PAGE_SIZE,
    // With alternative readings the caller keeps the hits of the best reading only.
    _source: q.streetKeyAlternatives.length === 0 ? [...LOOKUP_SOURCE] : [...LOOKUP_SOURCE, 'street_key'],
    track_total_hits: false,
  };
}

/** Tier 2 of /lookup/street: the best-scoring fuzzy street; the caller keeps only hits of the top street. */
export function fuzzyLookupRequest(q: StreetQuery, maxEdits?: number): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [
    term('house_number', q.houseNumber),
    ...narrowing(q, { postcodeAsFilter: true }),
  ];
  if (q.suffixKey !== undefined) filter.push(suffixFilter(q.suffixKey));
  return {
    query: { bool: { must: [fuzzyStreetClause(q, maxEdits)], filter } },
    sort: ['_score', ...STABLE_SORT],
    size: LOOKUP_PAGE_SIZE,
    _source: [...LOOKUP_SOURCE, 'street_key'],
    track_total_hits: false,
  };
}

/**
 * The register's other spellings of the suffix asked (boxKeys but the key itself) that forward ranking sends: when
 * the index's suffix keys are known (`q.heldSuffixes`), only those some address holds (of the twenty spellings of
 * box `3`, the bulk data holds nine), else all. Each term sent costs Elasticsearch a look-up in the suffix keys.
 */
export function rankedSpellings(q: StreetQuery): string[] {
  const spellings = boxKeys(q.suffixKey ?? '').slice(1);
  const held = q.heldSuffixes;
  return held ? spellings.filter((key) => held.has(key)) : spellings;
}

function forwardRanking(q: StreetQuery): estypes.QueryDslQueryContainer[] {
  const should: estypes.QueryDslQueryContainer[] = [
    // Exact suffix beats another suffix of the same number; a bare number prefers the address without one; the
    // register's other spelling of the same box ("bus 3" for b003) nearly as much as the spelling asked; then the
    // number without a suffix.
    { term: { suffix_key: { value: q.suffixKey ?? '', boost: 4 } } },
  ];
  // Term clauses, not one `terms` query (a multi-term query: a pass over the term dictionary, then a rewrite): on
  // the bulk data a range `56 - 58` profiled 403-509 µs so, 349-374 µs with term clauses, 304-325 µs with none.
  const spellings = rankedSpellings(q);
  if (spellings.length) {
    const anyOf = spellings.map((key) => ({ term: { suffix_key: key } }));
    should.push({ constant_score: { filter: { bool: { should: anyOf } }, boost: 3 } });
  }
  // A named suffix the building lacks: the number itself before another suffix of it. "56 - 206" may be the
  // addition 206 or the range 56 to 206, "Rue X 3 bus 9" a box the register does not hold: the index decides, in
  // this one request (the addition when it exists, else the number).
  if (q.suffixKey) should.push({ term: { suffix_key: { value: '', boost: 1 } } });
  if (q.postcodeKey) should.push({ term: { postcode_key: { value: q.postcodeKey, boost: 8 } } });
  return should;
}

function forwardSort(q: StreetQuery): estypes.SortCombinations[] {
  const sort: estypes.SortCombinations[] = ['_score'];
  if (q.focus) sort.push({ _geo_distance: { location: q.focus, order: 'asc', unit: 'm' } });
  return [...sort, ...STABLE_SORT];
}

/** Tier 1 of /geocode/forward: exact street key (or postcode) and number; suffix and postcode rank. */
export function exactForwardRequest(q: StreetQuery, size = FORWARD_WINDOW): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [
    term('house_number', q.houseNumber),
    ...narrowing(q, { postcodeAsFilter: !q.streetKey }),
  ];
  if (q.streetKey) filter.push(exactStreetFilter(q));
  return {
    query: { bool: { filter, should: [...primaryReading(q), ...forwardRanking(q)] } },
    sort: forwardSort(q),
    size,
    _source: [...FORWARD_SOURCE],
    track_total_hits: false,
  };
}

/** Tier 2 of /geocode/forward: fuzzy street and the exact number. */
export function fuzzyForwardRequest(q: StreetQuery, maxEdits?: number, size = FORWARD_WINDOW): estypes.SearchRequest {
  return {
    query: {
      bool: {
        must: [fuzzyStreetClause(q, maxEdits)],
        filter: [term('house_number', q.houseNumber), ...narrowing(q, { postcodeAsFilter: false })],
        should: forwardRanking(q),
      },
    },
    sort: forwardSort(q),
    size,
    _source: [...FORWARD_SOURCE],
    track_total_hits: false,
  };
}

/** The closest fuzzy street at all (any number), for the nearest-number tier when no look-alike has the number. */
export function fuzzyStreetProbeRequest(q: StreetQuery): estypes.SearchRequest {
  return {
    query: {
      bool: {
        must: [fuzzyStreetClause(q)],
        filter: narrowing(q, { postcodeAsFilter: false }),
        should: q.postcodeKey ? [{ term: { postcode_key: { value: q.postcodeKey, boost: 8 } } }] : [],
      },
    },
    sort: forwardSort(q),
    size: 1,
    _source: ['street_key'],
    track_total_hits: false,
  };
}

/** Forward answers one address; the runner-up tells whether an equally good answer exists elsewhere. */
export const FORWARD_WINDOW = 2;

/**
 * Whether the best forward hit (or the hit `at`) has an equally good runner-up in another city or on another street: a bare
 * street + number that exists in several places, asked without city, postcode or focus. The hits must come
 * from a request sorted by _score first (exact or fuzzy forward request).
 */
export function forwardAmbiguity<T extends { city: string; street_key: string }>(
  q: StreetQuery,
  hits: estypes.SearchHit<T>[],
  at = 0,
): boolean {
  if (q.cityKey || q.postcodeKey || q.focus) return false;
  const hit = hits[at];
  if (!hit?._source) return false;
  return hits.some(
    (other, i) =>
      i !== at &&
      other._source !== undefined &&
      other.sort?.[0] === hit.sort?.[0] &&
      (other._source.city !== hit._source!.city || other._source.street_key !== hit._source!.street_key),
  );
}

/**
 * Tier 3 of /geocode/forward: the number does not exist on the street, so the nearest existing number below
 * and above it (two sorted one-hit searches: no scripts needed). `streetFilter` is the street the earlier
 * tiers identified.
 */
export function nearestNumberRequests(
  q: StreetQuery,
  streetFilter: estypes.QueryDslQueryContainer,
): estypes.SearchRequest[] {
  const base = [streetFilter, ...narrowing(q, { postcodeAsFilter: false })];
  const side = (op: 'lt' | 'gt'): estypes.SearchRequest => ({
    query: {
      bool: {
        filter: [...base, { range: { house_number: { [op]: q.houseNumber } } }],
        should: forwardRanking(q),
      },
    },
    sort: [
      { house_number: op === 'lt' ? 'desc' : 'asc' },
      '_score',
      ...STABLE_SORT.slice(0, 2),
      { suffix_key: 'asc' },
      { id: 'asc' },
    ],
    size: 1,
    _source: [...FORWARD_SOURCE],
    track_total_hits: false,
  });
  return [side('lt'), side('gt')];
}

/** Which street the fuzzy tier settled on, expressed as a filter for the nearest-number tier. */
export function streetKeyFilter(key: string): estypes.QueryDslQueryContainer {
  return term('street_key', key);
}
