/**
 * The place query of the search box: what a person typed (`Delft`, `Mekelweg Delft`, `2628 CD`, `Zuid-Holland`)
 * read into place words and an optional place qualifier, and the one Elasticsearch body that finds every place
 * type in the places index (mappings/places.json) at once. Pure.
 *
 * Ranking, in constant-score tiers far enough apart that nothing below can reorder them:
 * - how the name matched: exact (a name key equals the typed words) before prefix before typo (one edit from 4
 *   characters, two from 8 unless the key holds a digit, first letter fixed, never in a postcode);
 * - then, within a tier: the place's size (log of its address count), a type prior (a city before the municipality
 *   and the province of the same name, all before a street called so), its own name before another place's
 *   exonym (PRIMARY_NAME_BONUS) and, given a focus, nearness.
 * The typo tier is a second round (`typos: true`), sent only when the first finds nothing (and, in the search box,
 * no address was read with confidence).
 */
import type { estypes } from '@elastic/elasticsearch';
import type { GeoPoint, PlaceDoc, PlaceType } from '../../../core/elasticsearch/documents.js';
import { normaliseText } from '../../../core/text/normalise.js';
import { isPostcodeKey, placeNameKeys } from '../../../core/text/placeKeys.js';
import { constantPart } from '../../elasticsearch/constantPart.js';
import { PLACE_TYPE_RULES } from './placeTypes.js';

type Query = estypes.QueryDslQueryContainer;

/** One way to read the text: these words name the place, those (if any) one of its ancestors or its postcode. */
export interface PlaceReading {
  keys: string[];
  qualifierKeys: string[];
}

/**
 * Qualifiers are at most this many words: a city or province name ("Bergen op Zoom", "Alphen aan den Rijn", Brussels'
 * "Saint-Josse-ten-Noode": measured, three words lost 1.4 % of French Brussels streets typed without a comma).
 */
const MAX_QUALIFIER_WORDS = 4;
const MAX_READINGS = 6;

/**
 * The readings of a text, the whole text as one name first. With commas, the first part is the name and the rest
 * the qualifier ("Delft, Zuid-Holland"), or the last part the name ("Delft, Mekelweg"); without, the last one to
 * four words may be the qualifier ("Mekelweg Delft", "Vismarkt Groningen"), or the first word ("Delft Mekelweg").
 * [] for a text without a letter or digit.
 */
export function readPlaceQuery(text: string): PlaceReading[] {
  const readings: PlaceReading[] = [];
  const seen = new Set<string>();
  const add = (name: string, typedQualifier = '') => {
    const qualifier = withoutPostcode(typedQualifier);
    const keys = placeNameKeys(name);
    const qualifierKeys = qualifier ? placeNameKeys(qualifier) : [];
    if (!keys.length || (qualifier && !qualifierKeys.length)) return;
    const id = `${keys[0]}|${qualifierKeys[0] ?? ''}`;
    if (seen.has(id) || readings.length >= MAX_READINGS) return;
    seen.add(id);
    readings.push({ keys, qualifierKeys });
  };
  const parts = text
    .split(',')
    .map((p) => normaliseText(p))
    .filter((p) => p !== '');
  const words = parts.join(' ').split(' ');
  add(words.join(' '));
  if (parts.length > 1) {
    add(parts[0] as string, parts.slice(1).join(' '));
    add(parts[parts.length - 1] as string, parts.slice(0, -1).join(' '));
  }
  for (let k = 1; k <= Math.min(MAX_QUALIFIER_WORDS, words.length - 1); k++) {
    add(words.slice(0, -k).join(' '), words.slice(-k).join(' '));
  }
  if (words.length > 1) add(words.slice(1).join(' '), words[0]);
  return readings;
}

/** A postcode (Dutch or Belgian shape) among the words of a normalised qualifier. */
const QUALIFIER_POSTCODE_RE = /(?:^| )[1-9]\d{3}(?: ?[a-z]{2}(?= |$))?(?= |$)/g;

/**
 * A qualifier of a postcode and a city ("1000 brussel", "1312 wr almere") qualifies by the city: a place is
 * qualified by one ancestor's name or its postcode, not both at once. A postcode alone stays.
 */
function withoutPostcode(qualifier: string): string {
  const rest = qualifier.replace(QUALIFIER_POSTCODE_RE, '').trim();
  return /[a-z]/.test(rest) ? rest : qualifier;
}

/**
 * The reading that finds the street of an address the search box already found: its name, qualified by its city
 * (the places index qualifies a street by its city's names in every language). [] when either has no key.
 */
export function streetOfAddressReading(streetname: string, city: string): PlaceReading[] {
  const keys = placeNameKeys(streetname);
  const qualifierKeys = placeNameKeys(city);
  return keys.length && qualifierKeys.length ? [{ keys, qualifierKeys }] : [];
}

/**
 * Scores of the match tiers; each gap is larger than everything that ranks within a tier (at most 17 + 8 + 15 + 5,
 * and 3 for the own name in the exact tier).
 */
export const TIER_SCORES = { exact: 200, prefix: 100, typo: 50 } as const;
export type PlaceMatch = keyof typeof TIER_SCORES;

/**
 * An exact match on the place's own name (not only another language's name of it) adds this much: more than one
 * step of the type prior, less than two, so "Limburg" puts the provinces (4 + 3) before the Walloon municipality
 * Limbourg (6), whose Dutch exonym it is. Places that all match by their own name ("Groningen": city, municipality,
 * province) or all by another language's ("Bruxelles") rank as before, and a large place's exonym still comes
 * before a small place's own name (size: ln of the address count, up to 17).
 */
const PRIMARY_NAME_BONUS = 3;
const PRIMARY_NAME_SCORE = TIER_SCORES.exact + PRIMARY_NAME_BONUS;

/**
 * Focus: a place this far away gets half of FOCUS_BOOST (distance_feature: boost * pivot / (pivot + distance)); at
 * the focus, as much as a 3,000-fold difference in size (ln).
 */
const FOCUS_PIVOT = '1km';
const FOCUS_BOOST = 15;

/** Prefixes of one character would match a twentieth of the index; they rank nothing useful. */
export const MIN_PREFIX_LENGTH = 2;
/** Typos from this many characters on (fuzziness AUTO:4,8 agrees). */
const MIN_TYPO_LENGTH = 4;
const FUZZINESS = 'AUTO:4,8';
/**
 * A key with a digit in it ("mekelweg 8", "vismarkt 12 9712 ca groningen": the readings of an address) gets one
 * edit at most. Why: the second edit is what makes a fuzzy query costly, the more so the longer the key (on the
 * bulk places, Elasticsearch's rewrite of one two-edit fuzzy query takes 1.5 ms for 9 characters and 7.7 ms for
 * 34, one edit 0.4-0.8 ms), and a text with a number is an address far more often than a misspelt place; the few
 * names with a digit (2e Exloërmond, Lelystad's "De Stelling 10") keep one typo. It also ends "Mekelweg 8"
 * reaching the street Mekelweg by deleting " 8" as two typos.
 */
const DIGIT_FUZZINESS = 1;

export interface PlaceQuery {
  text: string;
  size: number;
  focus?: GeoPoint | undefined;
  /** Only these types; all when absent. */
  layers?: readonly PlaceType[] | undefined;
  /** ISO alpha-2, upper case: one country or any of several. */
  country?: string | readonly string[] | undefined;
  /** [minLon, minLat, maxLon, maxLat]: only places whose point lies inside. */
  bbox?: readonly [number, number, number, number] | undefined;
  /** An area id: only places inside it (and the area itself). */
  within?: string | undefined;
}

export const PLACE_SOURCE = [
  'id',
  'type',
  'name',
  'names',
  'local_identifier',
  'parent_names',
  'country',
  'streetname',
  'city',
  'postcode',
  'location',
  'bbox',
  'address_count',
] as const satisfies readonly (keyof PlaceDoc)[];

export type PlaceHit = Pick<PlaceDoc, (typeof PLACE_SOURCE)[number]>;

/** `_source` of every place query (one frozen array, not a copy per request). */
const PLACE_SOURCE_FIELDS = constantPart([...PLACE_SOURCE]) as unknown as string[];

const typoKeys = (keys: readonly string[]) => keys.filter((k) => k.length >= MIN_TYPO_LENGTH && !isPostcodeKey(k));

function anyOf(queries: Query[]): Query {
  return queries.length === 1 ? queries[0] : { bool: { should: queries, minimum_should_match: 1 } };
}

function fuzzy(field: string, key: string): Query {
  const fuzziness = /\d/.test(key) ? DIGIT_FUZZINESS : FUZZINESS;
  return { fuzzy: { [field]: { value: key, fuzziness, prefix_length: 1 } } };
}

function tier(match: PlaceMatch, filter: Query): Query {
  return { constant_score: { filter, boost: TIER_SCORES[match] } };
}

/** The name clause of one reading: the best tier it reaches (dis_max: a name equal to the key is also a prefix). */
function nameClause(keys: readonly string[], typos: boolean): Query | undefined {
  const tiers: Query[] = [
    tier('exact', { terms: { name_keys: keys as string[] } }),
    { constant_score: { filter: { terms: { primary_name_keys: keys as string[] } }, boost: PRIMARY_NAME_SCORE } },
  ];
  const prefixes = keys.filter((k) => k.length >= MIN_PREFIX_LENGTH);
  if (prefixes.length) tiers.push(tier('prefix', anyOf(prefixes.map((k) => ({ prefix: { name_keys: k } })))));
  if (typos) {
    const fuzzyKeys = typoKeys(keys);
    if (!fuzzyKeys.length) return undefined;
    tiers.push(tier('typo', anyOf(fuzzyKeys.map((k) => fuzzy('name_keys', k)))));
  }
  return tiers.length === 1 ? tiers[0] : { dis_max: { queries: tiers } };
}

function qualifierFilter(keys: readonly string[], typos: boolean): Query {
  const options: Query[] = [{ terms: { qualifier_keys: keys as string[] } }];
  if (typos) for (const k of typoKeys(keys)) options.push(fuzzy('qualifier_keys', k));
  return anyOf(options);
}

/** A qualifier naming the place's own city (not only a province or municipality of that name) adds this much. */
const LOCALITY_BOOST = 5;

function readingClause(r: PlaceReading, typos: boolean): Query | undefined {
  const name = nameClause(r.keys, typos);
  if (!name || !r.qualifierKeys.length) return name;
  return {
    bool: {
      must: [name],
      filter: [qualifierFilter(r.qualifierKeys, typos)],
      should: [{ constant_score: { filter: { terms: { locality_keys: r.qualifierKeys } }, boost: LOCALITY_BOOST } }],
    },
  };
}

function filters(q: PlaceQuery): Query[] {
  const out: Query[] = [];
  if (q.layers?.length) out.push({ terms: { type: [...q.layers] } });
  if (typeof q.country === 'string') out.push({ term: { country: q.country } });
  else if (q.country) out.push({ terms: { country: [...q.country] } });
  if (q.within) out.push({ term: { ancestor_ids: q.within } });
  if (q.bbox) out.push(boxFilter(q.bbox));
  return out;
}

/** The documents whose `location` lies in the box ([minLon, minLat, maxLon, maxLat]). */
export function boxFilter([minLon, minLat, maxLon, maxLat]: readonly [number, number, number, number]): Query {
  return {
    geo_bounding_box: {
      location: { top_left: { lat: maxLat, lon: minLon }, bottom_right: { lat: minLat, lon: maxLon } },
    },
  };
}

/**
 * Added to the match tier (function_score, score and boost modes `sum`): ln(2 + address count), at most about 17;
 * the type prior. (rank_feature would do the first, but it lives in the mapper-extras module, which not every
 * distribution ships: the local launcher's does not.) The same for every request, so built once: a place query
 * at half rate rebuilt these eight clauses per request, and the API's scavenges promote per-request objects.
 */
const RANK_FUNCTIONS: readonly estypes.QueryDslFunctionScoreContainer[] = constantPart([
  { field_value_factor: { field: 'address_count', modifier: 'ln2p', missing: 0 } },
  ...Object.entries(PLACE_TYPE_RULES)
    .filter(([, rules]) => rules.prior > 0)
    .map(([type, rules]) => ({ filter: { term: { type } }, weight: rules.prior })),
]);

function focusClauses(focus: GeoPoint | undefined): Query[] {
  if (!focus) return [];
  return [
    { distance_feature: { field: 'location', origin: [focus.lon, focus.lat], pivot: FOCUS_PIVOT, boost: FOCUS_BOOST } },
  ];
}

/**
 * The search body of one round for the readings of placeQuery.text, or undefined when there is nothing to search
 * (no letter or digit; in the typo round, no word long enough for a typo).
 */
export function placeSearchRequest(
  q: PlaceQuery,
  readings: readonly PlaceReading[],
  typos: boolean,
): estypes.SearchRequest | undefined {
  const clauses = readings.map((r) => readingClause(r, typos)).filter((c): c is Query => c !== undefined);
  if (!clauses.length) return undefined;
  return {
    size: q.size,
    track_total_hits: false,
    _source: PLACE_SOURCE_FIELDS,
    query: {
      function_score: {
        query: {
          bool: {
            must: [clauses.length === 1 ? clauses[0] : { dis_max: { queries: clauses } }],
            should: focusClauses(q.focus),
            filter: filters(q),
          },
        },
        functions: RANK_FUNCTIONS as estypes.QueryDslFunctionScoreContainer[],
        score_mode: 'sum',
        boost_mode: 'sum',
      },
    },
  };
}

/**
 * The tier a hit reached, from its score: what ranks within a tier adds less than the gap to the next one. (Named
 * queries cannot tell: Elasticsearch 9.5 reports them unreliably under nested dis_max.)
 */
export function matchOfScore(score: number): PlaceMatch {
  if (score >= TIER_SCORES.exact) return 'exact';
  if (score >= TIER_SCORES.prefix) return 'prefix';
  return 'typo';
}
