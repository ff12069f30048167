/**
 * Type-ahead (GET /autocomplete): the text typed so far read into what to search for. Pure; the Elasticsearch
 * bodies are built in autocompleteBodies.ts.
 *
 * Reading, left to right over the normalised words (core/text/normalise.ts):
 * - a Dutch postcode prefix (`2628`, `2628 c`, `2628cd`) or a Belgian one (`1000`) alone: postcodes;
 * - words, then a word starting with a digit: street words + house number (core/text/houseNumber.ts) + what follows
 *   (TYPED_SUFFIX_WORD_RE in core/text/readingRules.ts: `8 a`, `139 a 1`, `1-B087`; longer words the city:
 *   `8 delft`);
 * - words alone: a street (the last word may be unfinished) or a city.
 */
import { parseHouseNumber, suffixKey } from '../../../core/text/houseNumber.js';
import { normaliseStreet, normaliseText } from '../../../core/text/normalise.js';
import { POSTCODE_PREFIX_RE } from '../../../core/text/postcodePatterns.js';
import { TYPED_SUFFIX_WORD_RE } from '../../../core/text/readingRules.js';
import { focusOf } from '../../geometry/focus.js';

import type { Focus } from '../../geometry/focus.js';
export type { Focus };

export interface AutocompleteInput {
  q: string;
  size: number;
  lat?: number | undefined;
  lon?: number | undefined;
  bounds?: AutocompleteBounds | undefined;
}

/** Where the suggestions must lie (the Pelias door's boundary filters): a filter of every search, not of its answer. */
export interface AutocompleteBounds {
  /** The countries' hierarchy ids (the address and street documents' `country_id`). */
  countryIds?: readonly string[] | undefined;
  /** [minLon, minLat, maxLon, maxLat]: only what has its `location` inside. */
  bbox?: readonly [number, number, number, number] | undefined;
}

interface Common {
  size: number;
  focus: Focus | undefined;
  bounds?: AutocompleteBounds | undefined;
}

export interface StreetPrefixQuery extends Common {
  kind: 'street';
  /** Normalised words; the last one may be unfinished. */
  words: string[];
  /** The words joined without spaces: a prefix of street_key when the name starts with what was typed. */
  key: string;
}

export interface AddressReading {
  words: string[];
  key: string;
  houseNumber: number;
  /** Letter + addition typed so far, as a prefix of suffix_key; "" when none. */
  suffixPrefix: string;
  /** Normalised city typed after the number, a prefix of city_key; "" when none. */
  city: string;
}

export interface AddressPrefixQuery extends Common, AddressReading {
  kind: 'address';
  /**
   * Other plausible readings, tried in order only when this one finds nothing: short words read as the suffix
   * that begin the city (`35 ter apel`, `37 't zandt`), a letter code that is the suffix (`25-ETRC Schaarbeek`),
   * a number that belongs to the street's name (`Punter 37 24`, Lelystad).
   */
  otherReadings: AddressReading[];
}

export interface PostcodePrefixQuery extends Common {
  kind: 'postcode';
  /** Prefix of postcode_key ("2628", "2628c"). */
  prefix: string;
}

export type AutocompleteQuery = StreetPrefixQuery | AddressPrefixQuery | PostcodePrefixQuery;

const DIGIT_START_RE = /^[0-9]/;
/** A short letter code after the number that may be a suffix rather than the city (`ETRC`, `RDCH`: Belgian floors). */
const LETTER_CODE_RE = /^[a-z]{3,4}$/;

/** The shortest unfinished word fuzzy matching applies to (one typo tolerated from here on). */
export const FUZZY_MIN_LENGTH = 4;

/**
 * The street words as the index stores them (abbreviations expanded: `prof kr` -> `professor kr`). An unfinished
 * last word stays as typed: `kerkpl` may be heading for Kerkplantsoen, not the Kerkplein its expansion reads.
 */
function streetWords(tokens: readonly string[], lastUnfinished: boolean): string[] {
  const words = normaliseStreet(tokens.join(' ')).split(' ');
  if (lastUnfinished) words[words.length - 1] = tokens[tokens.length - 1]!;
  return words;
}

export function parseAutocompleteQuery(input: AutocompleteInput): AutocompleteQuery | undefined {
  const text = normaliseText(input.q);
  const common: Common = {
    size: input.size,
    focus: focusOf(input),
    ...(input.bounds ? { bounds: input.bounds } : {}),
  };
  if (text === '') return undefined;
  const postcode = POSTCODE_PREFIX_RE.exec(text);
  if (postcode) return { ...common, kind: 'postcode', prefix: postcode[1]! + (postcode[2] ?? '') };

  const tokens = text.split(' ');
  const numberAt = tokens.findIndex((t, i) => i > 0 && DIGIT_START_RE.test(t));
  if (numberAt < 0) {
    const words = streetWords(tokens, true);
    return { ...common, kind: 'street', words, key: words.join('') };
  }

  const primary = addressReading(tokens, numberAt);
  if (!primary) {
    const words = streetWords(tokens.slice(0, numberAt), false);
    return { ...common, kind: 'street', words, key: words.join('') };
  }
  const { reading, suffixEnd } = primary;
  const others: AddressReading[] = [];
  const cityWords = tokens.slice(suffixEnd);
  if (suffixEnd > numberAt + 1 && cityWords.length > 0) {
    // The words read as the suffix begin the city.
    const alone = addressReading(tokens, numberAt, numberAt + 1);
    if (alone) others.push({ ...alone.reading, city: tokens.slice(numberAt + 1).join(' ') });
  }
  if (cityWords.length > 1 && LETTER_CODE_RE.test(cityWords[0]!)) {
    // The first word of the "city" is a letter code of the suffix.
    const coded = addressReading(tokens, numberAt, suffixEnd + 1);
    if (coded) others.push(coded.reading);
  }
  const nextNumber = tokens.findIndex((t, i) => i > numberAt && DIGIT_START_RE.test(t));
  if (nextNumber === numberAt + 1) {
    // The first number is part of the street's name.
    const named = addressReading(tokens, nextNumber);
    if (named) others.push(named.reading);
  }
  return { ...common, kind: 'address', ...reading, otherReadings: others };
}

/** Street words before `numberAt`, the house number there, suffix words up to `suffixEnd` (else read), the city after. */
function addressReading(
  tokens: readonly string[],
  numberAt: number,
  suffixEnd?: number,
): { reading: AddressReading; suffixEnd: number } | undefined {
  const words = streetWords(tokens.slice(0, numberAt), false);
  let end = numberAt + 1;
  if (suffixEnd === undefined) {
    while (end < tokens.length && TYPED_SUFFIX_WORD_RE.test(tokens[end]!)) end++;
  } else end = Math.min(suffixEnd, tokens.length);
  const numberText = tokens.slice(numberAt, end).join(' ');
  const parsed = parseHouseNumber(numberText) ?? parseHouseNumber(tokens[numberAt]!);
  if (!parsed) return undefined;
  const reading = {
    words,
    key: words.join(''),
    houseNumber: parsed.number,
    suffixPrefix: suffixKey(parsed),
    city: tokens.slice(end).join(' '),
  };
  return { reading, suffixEnd: end };
}
