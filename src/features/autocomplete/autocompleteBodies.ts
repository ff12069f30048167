/**
 * Elasticsearch bodies of GET /autocomplete. Pure.
 *
 * Streets come from the streets index (one document per street and city, built by the indexer: see docs/design.md,
 * "Autocomplete: a street-level index"): one `prefix` query on `street_words` (every tail of the street's normalised words, so
 * the typed words match a prefix of the name or of any later word; the index holds every prefix of a tail up to 19
 * characters as a term, mappings/streets.json `index_prefixes`, so a prefix is one term's postings, not an expansion
 * over every word that starts so), ranked in the same request by match quality
 * (constant scores: the name is what was typed, the name starts with it, a later word starts with it), then by
 * distance to the focus (the nearest of the street's sampled address points), then by the street's size.
 * Addresses (once a number is typed) and postcodes are searched on the address index.
 */
import { ADDRESS_SOURCE } from '../address/addressFields.js';
import type { estypes } from '@elastic/elasticsearch';
import type { AddressDoc, GeoPoint, StreetDoc } from '../../../core/elasticsearch/documents.js';
import type {
  AddressPrefixQuery,
  AutocompleteBounds,
  Focus,
  PostcodePrefixQuery,
  StreetPrefixQuery,
} from './autocompleteInput.js';
import { FUZZY_MIN_LENGTH } from './autocompleteInput.js';
import { fuzzyPhraseRegexp, fuzzyPrefixRegexp, MAX_REGEX_LENGTH } from './typoRegexp.js';
import { boxKeys } from '../../../core/text/houseNumber.js';
import { constantPart } from '../../elasticsearch/constantPart.js';
import { boxFilter } from '../places/placeQueries.js';

type Query = estypes.QueryDslQueryContainer;

/** What an address or postcode suggestion shows, no more (`_source` filtering: the fewer fields, the less JSON). */
export const AUTOCOMPLETE_SOURCE = ADDRESS_SOURCE satisfies readonly (keyof AddressDoc)[];

export type AutocompleteHit = Pick<AddressDoc, (typeof AUTOCOMPLETE_SOURCE)[number]>;

/**
 * What a street suggestion shows and is ranked by, and what the exact round matched it on (keys and word tails: a
 * longer keystroke is answered from a complete shorter one by the same rules, completeStreets.ts).
 */
export const STREET_SOURCE = [
  // The street's own stable id (the places index and GET /search name the street by it too).
  'id',
  'streetname',
  'city',
  'location',
  'address_count',
  'street_names',
  'street_key',
  'street_words',
  'other_street_keys',
  'other_street_words',
] as const satisfies readonly (keyof StreetDoc)[];

/** A street hit; `points` only when there is a focus (the suggestion is placed at the nearest of them). */
export type StreetHit = Pick<StreetDoc, (typeof STREET_SOURCE)[number]> & { points?: GeoPoint[] };

/** Match quality of a street, best first. */
export const QUALITIES = ['exact', 'starts', 'word'] as const;
export type Quality = (typeof QUALITIES)[number] | 'fuzzy';

/** Constant scores of the street qualities (a street named `q` also starts with it: 2 + 1). */
const EXACT_BOOST = 2;
const STARTS_BOOST = 1;

/** The quality of a street hit of streetPrefixRequest, from its score (the first sort value). */
export function qualityOfScore(score: number): (typeof QUALITIES)[number] {
  if (score >= EXACT_BOOST + STARTS_BOOST) return 'exact';
  if (score >= STARTS_BOOST) return 'starts';
  return 'word';
}

/** With a focus and one or two letters typed, only streets this close are considered (the rest is noise anyway). */
export const SHORT_PREFIX_RADIUS = '15km';
export const SHORT_PREFIX_LENGTH = 2;
/** From this many letters typed as one word, it also matches a prefix of the whole name glued (`vandermo`). */
export const GLUED_MIN_LENGTH = 5;

/** The street key as the primary name's or another language's (`rueneuve` is Nieuwstraat's French key). */
function anyKey(kind: 'term' | 'prefix', key: string): Query {
  return {
    bool: {
      should: [{ [kind]: { street_key: key } }, { [kind]: { other_street_keys: key } }],
      minimum_should_match: 1,
    },
  };
}

/**
 * The streets index's street keys starting with `key` (a `.starts` field: the index holds every prefix of a key up
 * to 19 characters as a term, mappings/streets.json, so this is one term's postings, not an expansion of every key
 * that starts so; a longer key falls back to the expansion).
 */
function anyKeyStarts(key: string): Query {
  return {
    bool: {
      should: [{ prefix: { 'street_key.starts': key } }, { prefix: { 'other_street_keys.starts': key } }],
      minimum_should_match: 1,
    },
  };
}

/** The primary name's field and the other languages' (addresses: analysed text; streets: word tails). */
const TEXT_FIELDS = ['street_text', 'other_street_text'] as const;
type StreetTextField = (typeof TEXT_FIELDS)[number];
const WORDS_FIELDS = ['street_words', 'other_street_words'] as const;

/**
 * The clause over the primary name's field or over the other languages' (`rue neuve` as well as `nieuwstraat`):
 * all words from one of them, never words mixed from two.
 */
function inAnyLanguage<F extends string>(fields: readonly F[], clause: (field: F) => Query): Query {
  return { bool: { should: fields.map(clause), minimum_should_match: 1 } };
}

/** The words typed (for the address index): every word but the last as a whole word, the last as a prefix. */
function wordsClause(words: readonly string[]): Query {
  const query = { query: words.join(' '), operator: 'and' as const };
  return inAnyLanguage(TEXT_FIELDS, (field) => ({ match_bool_prefix: { [field]: query } }));
}

/** The words typed, one typo per word, in the street's name in any of its languages. */
function fuzzyWordsClause(words: readonly string[]): Query {
  return inAnyLanguage(TEXT_FIELDS, (field) => fuzzyWordsOf(words, field));
}

function fuzzyWordsOf(words: readonly string[], field: StreetTextField): Query {
  const last = words.length - 1;
  return {
    bool: {
      filter: words.map((word, i): Query => {
        if (word.length < FUZZY_MIN_LENGTH) {
          return i === last ? { prefix: { [field]: word } } : { term: { [field]: word } };
        }
        if (i < last) return { fuzzy: { [field]: { value: word, fuzziness: 1, prefix_length: 1 } } };
        const regexp = fuzzyPrefixRegexp(word);
        if (regexp.length > MAX_REGEX_LENGTH) return { prefix: { [field]: word } };
        return { regexp: { [field]: { value: regexp, flags: 'NONE' } } };
      }),
    },
  };
}

const distanceSort = (focus: Focus): estypes.SortCombinations => ({
  _geo_distance: { location: focus, order: 'asc', unit: 'm' },
});

/** Whether the street rounds keep only the streets near the focus (one or two letters typed on a map). */
export function nearFocusOnly(q: { focus: Focus | undefined; key: string }): boolean {
  return q.focus !== undefined && q.key.length <= SHORT_PREFIX_LENGTH;
}

function focusFilter(q: { focus: Focus | undefined; key: string; bounds?: AutocompleteBounds | undefined }): Query[] {
  const near: Query[] = nearFocusOnly(q) ? [{ geo_distance: { distance: SHORT_PREFIX_RADIUS, points: q.focus! } }] : [];
  return [...near, ...boundsFilter(q.bounds)];
}

/**
 * The request's bounds as filters of the search (the address and street documents alike hold `country_id` and
 * `location`), so `size` suggestions inside them come back where they exist.
 */
export function boundsFilter(bounds: AutocompleteBounds | undefined): Query[] {
  const out: Query[] = [];
  if (bounds?.countryIds) out.push({ terms: { country_id: [...bounds.countryIds] } });
  if (bounds?.bbox) out.push(boxFilter(bounds.bbox));
  return out;
}

/** What the exact street round matches as a prefix of a street's word tails: the words typed, joined by spaces. */
export const streetText = (q: Pick<StreetPrefixQuery, 'words'>): string => q.words.join(' ');

/** Whether the exact street round also matches a prefix of the glued name (one word of GLUED_MIN_LENGTH+ letters). */
export const matchesGlued = (q: Pick<StreetPrefixQuery, 'words' | 'key'>): boolean =>
  q.words.length === 1 && q.key.length >= GLUED_MIN_LENGTH;

/** Nearest first (the nearest sampled point of each street), then the bigger street, then a stable order. */
function streetSort(q: StreetPrefixQuery, score: boolean): estypes.SortCombinations[] {
  return [
    ...(score ? ['_score' as const] : []),
    ...(q.focus
      ? [{ _geo_distance: { points: q.focus, order: 'asc' as const, unit: 'm' as const, mode: 'min' as const } }]
      : []),
    ...STREET_ORDER,
  ];
}

/**
 * The parts of the bodies that are the same for every request, built once (constantPart: fewer objects per
 * request for the scavenges to copy).
 */
const ADDRESS_FIELDS = constantPart([...AUTOCOMPLETE_SOURCE]) as unknown as string[];
const STREET_FIELDS = constantPart([...STREET_SOURCE]) as unknown as string[];
const STREET_FIELDS_WITH_POINTS = constantPart([...STREET_SOURCE, 'points']);
const STREET_ORDER = constantPart([
  { address_count: 'desc' },
  { street_key: 'asc' },
  { city_key: 'asc' },
]) as unknown as estypes.SortCombinations[];
const ADDRESS_ORDER = constantPart([
  { street_key: 'asc' },
  { city_key: 'asc' },
  { suffix_key: 'asc' },
  { id: 'asc' },
]) as unknown as estypes.SortCombinations[];
const POSTCODE_ORDER = constantPart({ postcode_key: 'asc' }) as estypes.SortCombinations;
const POSTCODE_COLLAPSE = constantPart({ field: 'postcode_key' });

function streetSource(q: StreetPrefixQuery): string[] {
  return q.focus ? STREET_FIELDS_WITH_POINTS : STREET_FIELDS;
}

/**
 * Streets whose words start with what was typed (the typed words joined by spaces, a prefix of one of the
 * street_words tails; one word of GLUED_MIN_LENGTH+ letters also a prefix of the glued name, street_key), best
 * quality first.
 */
export function streetPrefixRequest(q: StreetPrefixQuery): estypes.SearchRequest {
  // The other languages' names too: `rue n` finds Nieuwstraat / Rue Neuve.
  const match: Query[] = WORDS_FIELDS.map((field) => ({ prefix: { [field]: streetText(q) } }));
  if (matchesGlued(q)) match.push({ prefix: { 'street_key.starts': q.key } });
  return streetRequest(
    q,
    {
      filter: [{ bool: { should: match, minimum_should_match: 1 } }, ...focusFilter(q)],
      should: [
        { constant_score: { filter: anyKey('term', q.key), boost: EXACT_BOOST } },
        { constant_score: { filter: anyKeyStarts(q.key), boost: STARTS_BOOST } },
      ],
    },
    true,
  );
}

/** A page of street suggestions: the street fields, sorted by quality (when scored), focus and size. */
function streetRequest(q: StreetPrefixQuery, bool: estypes.QueryDslBoolQuery, scored: boolean): estypes.SearchRequest {
  return {
    size: q.size,
    track_total_hits: false,
    _source: streetSource(q),
    query: { bool },
    sort: streetSort(q, scored),
  };
}

/**
 * Streets one typo away (only asked when the exact request found too little), in any of their languages
 * (`rue nauve` finds Nieuwstraat / Rue Neuve as `nieuwstrat` does).
 */
export function fuzzyStreetRequest(q: StreetPrefixQuery): estypes.SearchRequest {
  // Asked only when mayBeTypo(): the expression fits.
  const regexp = fuzzyPhraseRegexp(q.words) ?? '';
  const typo = inAnyLanguage(WORDS_FIELDS, (field) => ({ regexp: { [field]: { value: regexp, flags: 'NONE' } } }));
  return streetRequest(q, { filter: [typo, ...focusFilter(q)] }, false);
}

/** Addresses of the matching streets with that number: the named street first, then the suffixes in order. */
export function addressPrefixRequest(q: AddressPrefixQuery, fuzzy = false): estypes.SearchRequest {
  const filter: Query[] = [
    { term: { house_number: q.houseNumber } },
    fuzzy ? fuzzyWordsClause(q.words) : wordsClause(q.words),
  ];
  // A box typed as the register may not have written it ("bus 3" for b003): any of its spellings as a prefix.
  if (q.suffixPrefix) {
    const spellings = boxKeys(q.suffixPrefix);
    filter.push(
      spellings.length === 1
        ? { prefix: { suffix_key: q.suffixPrefix } }
        : { bool: { should: spellings.map((k) => ({ prefix: { suffix_key: k } })), minimum_should_match: 1 } },
    );
  }
  if (q.city) filter.push({ prefix: { city_key: q.city } });
  filter.push(...boundsFilter(q.bounds));
  return {
    size: q.size,
    track_total_hits: false,
    _source: ADDRESS_FIELDS,
    query: {
      bool: {
        filter,
        should: [
          { constant_score: { filter: anyKey('term', q.key), boost: 4 } },
          { constant_score: { filter: anyKey('prefix', q.key), boost: 2 } },
          { constant_score: { filter: { terms: { suffix_key: boxKeys(q.suffixPrefix) } }, boost: 1 } },
        ],
      },
    },
    sort: q.focus ? ['_score', distanceSort(q.focus), ...ADDRESS_ORDER] : ['_score', ...ADDRESS_ORDER],
  };
}

/** Postcodes starting with the prefix, one address each, in postcode order (nearest first with a focus). */
export function postcodePrefixRequest(q: PostcodePrefixQuery): estypes.SearchRequest {
  return {
    size: q.size,
    track_total_hits: false,
    _source: ADDRESS_FIELDS,
    query: { bool: { filter: [{ prefix: { postcode_key: q.prefix } }, ...boundsFilter(q.bounds)] } },
    collapse: POSTCODE_COLLAPSE,
    sort: q.focus ? [distanceSort(q.focus), POSTCODE_ORDER] : [POSTCODE_ORDER],
  };
}
