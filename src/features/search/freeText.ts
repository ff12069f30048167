/**
 * Reading a free-text address ("Mekelweg 8, 2628 CD Delft", "delft, mekelweg 8", "2628CD 8a",
 * "Wetstraat 16 1000 Brussel") into structured queries. Pure and table-tested; the data it needs (postcode
 * shapes per country, the known city names) is passed in.
 *
 * The order people write: street, number, [postcode], [city]; or the city (and postcode) first, usually
 * before a comma; or postcode and number alone. The house number anchors the reading: the words before it in
 * its comma-segment are the street, the words after it and in other segments the city. When that is
 * ambiguous ("Delft Mekelweg 8": city Delft and street Mekelweg, or street "Delft Mekelweg"), every
 * plausible reading is returned, best guess first, and the caller tries them all in one round trip.
 */
import { parseHouseNumber } from '../../../core/text/houseNumber.js';
import { type CountryCode, POSTCODE_PATTERNS } from '../../../core/text/postcodePatterns.js';
import { countryNamed } from '../../../core/text/countries.js';
import { readNumberTail } from '../../../core/text/numberTail.js';
import type { KnownCities } from '../cities/knownCities.js';
import type { StreetQueryInput } from '../address/streetRequest.js';
import { type FreeTextCity, outranksFuzzyTier } from '../address/matchQuality.js';
import { cityAhead } from './cityAhead.js';
import { readTypedText } from './typedText.js';

export interface FreeTextReading {
  query: StreetQueryInput;
  /**
   * How the city was read: named exactly, with a typo, not given, given but unknown (then ignored), or named with
   * other words beside it that the reading could not place (`partial`: they were ignored).
   */
  city: FreeTextCity;
}

export interface FreeTextOptions {
  cities: KnownCities;
  /** Only these countries' postcode shapes (the `country` parameter); all when omitted. */
  countries?: readonly CountryCode[];
}

interface Token {
  text: string;
  /** Lower case, for the patterns. */
  lower: string;
  segment: number;
}

/** A country's name or code among the city words ("…, Delft NL"): noise for an address in the index. */
const isCountryWord = (t: Token) => countryNamed(t.lower) !== undefined;
/** Readings tried at most: each costs a search. */
const MAX_READINGS = 4;

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  text.split(/[,;]/).forEach((segment, i) => {
    for (const word of segment.trim().split(/\s+/)) {
      if (word) tokens.push({ text: word, lower: word.toLowerCase(), segment: i });
    }
  });
  return tokens;
}

/** Whether the token at `i` follows a word (not a number) of its own segment: a street's word before a number. */
const followsWord = (tokens: readonly Token[], i: number) => {
  const previous = tokens[i - 1];
  return previous !== undefined && previous.segment === tokens[i]!.segment && !/^\d/.test(previous.lower);
};

/**
 * Whether a bare number at `i` is no postcode: it follows a word of its segment without a digit, the street's
 * ("Wetstraat 1000") or a box word or dash ("Pleinlaan 2 b 5533, 1050 Elsene", "Plattedijk 25A - 6317"). After a
 * number or a box code with a digit it is ("Wetstraat 16 1000 Brussel", "Herkoliersstraat 8 .02 1081 Koekelberg").
 */
function isNumberSlot(tokens: readonly Token[], i: number): boolean {
  const previous = tokens[i - 1];
  if (previous === undefined || previous.segment !== tokens[i]!.segment || /\d/.test(previous.lower)) return false;
  // A part that begins with the number has its street after it: "40 Avenue De Fré 1180 Uccle" ends with the postcode.
  const first = tokens.find((t) => t.segment === previous.segment)!;
  return !(first !== previous && isNumber(first));
}

/** The token at `i` begins a part after the first and a word of letters follows it in that part. */
function opensLaterPart(tokens: readonly Token[], i: number): boolean {
  const [t, previous, next] = [tokens[i]!, tokens[i - 1], tokens[i + 1]];
  return t.segment > 0 && previous?.segment !== t.segment && next?.segment === t.segment && /^\p{L}/u.test(next.text);
}

/** The postcode's tokens (one, or two for "2628 CD"), preferring unambiguous shapes. */
function findPostcode(
  tokens: Token[],
  countries: readonly CountryCode[] | undefined,
): { start: number; length: number; text: string } | undefined {
  const patterns = POSTCODE_PATTERNS.filter((p) => !countries || countries.includes(p.country));
  const digitsLed = tokens.filter((t) => /^\d/.test(t.lower)).length;
  for (const ambiguous of [false, true]) {
    for (const { pattern, lookslikeNumber } of patterns) {
      if (lookslikeNumber !== ambiguous) continue;
      // A bare "1000" is a postcode only beside another number ("Wetstraat 16 1000 Brussel"), or where a part after a
      // comma begins with it and words follow ("Haringstraat, 1000 Brussel").
      if (lookslikeNumber && digitsLed < 2) {
        const at = tokens.findIndex((t, i) => pattern.test(t.lower) && opensLaterPart(tokens, i));
        if (at >= 0) return { start: at, length: 1, text: tokens[at]!.text };
        continue;
      }
      for (let i = 0; i < tokens.length; i++) {
        const one = tokens[i] as Token;
        const next = tokens[i + 1];
        if (next && next.segment === one.segment && pattern.test(`${one.lower} ${next.lower}`)) {
          return { start: i, length: 2, text: `${one.text} ${next.text}` };
        }
        if (!pattern.test(one.lower)) continue;
        if (!lookslikeNumber || !readAsNumber(tokens, i, pattern)) return { start: i, length: 1, text: one.text };
      }
    }
  }
  return undefined;
}

/**
 * Whether a bare postcode-shaped number at `i` is the house number instead: after the street's word (isNumberSlot);
 * of two bare numbers in a row the later is the postcode, the first the number's box ("Pleinlaan 2 4255 1050
 * Elsene"); a four-digit number before the street is its house number when another postcode-shaped number follows
 * ("1595 Waterloosesteenweg, 1180 Ukkel").
 */
function readAsNumber(tokens: readonly Token[], i: number, pattern: RegExp): boolean {
  const [one, next] = [tokens[i]!, tokens[i + 1]];
  if (isNumberSlot(tokens, i)) return true;
  if (next === undefined || next.segment !== one.segment) return false;
  if (pattern.test(next.lower)) return true;
  return (
    /^\p{L}/u.test(next.text) &&
    tokens[i - 1]?.segment !== one.segment &&
    tokens.slice(i + 1).some((t) => pattern.test(t.lower))
  );
}

const isNumber = (t: Token) => /^\d/.test(t.lower) && parseHouseNumber(t.text) !== null;

/**
 * The house number's tokens: a digit-led token that follows a word of its segment (the street's), else the first
 * digit-led token ("2e Exloërmond, Noorderdiep 2": 2, not 2e), with its tail (readNumberTail: a box, an addition,
 * a dash form) when that parses.
 */
function findNumber(tokens: Token[], cities: KnownCities): NumberTokens | undefined {
  let afterWord = tokens.findIndex((t, i) => isNumber(t) && followsWord(tokens, i));
  // "12 - 14 Rue X": a range that begins its part is the number, not a street "12 -".
  const partStart = afterWord >= 0 ? tokens.findIndex((t) => t.segment === tokens[afterWord]!.segment) : -1;
  if (partStart >= 0 && isNumber(tokens[partStart]!)) {
    const between = tokens.slice(partStart + 1, afterWord);
    if (between.every((t) => !/\p{L}/u.test(t.text))) afterWord = partStart;
  }
  const start = afterWord >= 0 ? afterWord : tokens.findIndex(isNumber);
  return start < 0 ? undefined : numberAt(tokens, start, cities);
}

interface NumberTokens {
  start: number;
  length: number;
  text: string;
}

/**
 * The house number whose first token is `tokens[start]`, with its tail when that parses. Whether a word after it is
 * the city is judged with the whole rest of the text (cityAhead: `bus ETES, 1030 Schaarbeek` names Schaarbeek).
 */
function numberAt(tokens: Token[], start: number, cities: KnownCities): NumberTokens {
  const first = tokens[start] as Token;
  // The tail (box, addition, dash forms) is read by the shared rule, over the words of the number's segment.
  const after: string[] = [];
  for (let i = start + 1; i < tokens.length && tokens[i]!.segment === first.segment; i++) after.push(tokens[i]!.text);
  const rest = texts(tokens.slice(start + 1));
  const tail = readNumberTail(first.text, after, cityAhead(rest, after.length, cities));
  // A number that begins its part has the street after it ("99 Rue des Harengs"): a tail of letters alone is the
  // street's first word there; a range or a box with a digit ("12 - 14 Rue X") is still the number's.
  const leading = tokens[start - 1]?.segment !== first.segment;
  const tailWords = tokens.slice(start + 1, start + 1 + tail.length);
  if (leading && !tailWords.some((t) => /\d/.test(t.lower))) return { start, length: 1, text: first.text };
  if (tail.length > 0 && parseHouseNumber(tail.text)) return { start, length: 1 + tail.length, text: tail.text };
  return { start, length: 1, text: first.text };
}

/**
 * The city among the words that are not the street nor the number: all of them, else the last part after a comma,
 * else the last words (as many as a known name has). Words the reader did not place ("bt 3" before it knew `bt`,
 * "- 148") must not cost the city typed: a reading without its city answers the same street anywhere
 * ("Populierenlaan 1 - 148, Groningen" in Burgh-Haamstede).
 */
function cityReading(words: Token[], cities: KnownCities): { city?: string; how: FreeTextReading['city'] } {
  const meaningful = words.filter((w) => !isCountryWord(w));
  if (meaningful.length === 0) return { how: 'none' };
  const lastSegment = meaningful.filter((t) => t.segment === meaningful[meaningful.length - 1]!.segment);
  const tries = [meaningful, lastSegment];
  for (let k = Math.min(cities.maxWords, meaningful.length - 1); k >= 1; k--) tries.push(meaningful.slice(-k));
  for (const candidate of tries) {
    const match = cities.match(texts(candidate));
    if (!match) continue;
    // Words beside the city that nothing placed ("bovenverdieping achter Groningen") were ignored: said, not lost.
    const dropped = meaningful.filter((w) => !candidate.includes(w) && /\p{L}/u.test(w.text));
    const how = dropped.length > 0 ? 'partial' : match.distance === 0 ? 'exact' : 'fuzzy';
    return { city: match.key, how };
  }
  return { how: 'ignored' };
}

function reading(
  street: Token[],
  number: string,
  postcode: string | undefined,
  cityWords: Token[],
  cities: KnownCities,
): FreeTextReading {
  const { city, how } = cityReading(cityWords, cities);
  const query: StreetQueryInput = { number };
  if (street.length > 0) query.streetname = street.map((t) => t.text).join(' ');
  if (postcode) query.postcode = postcode;
  if (city) query.city = city;
  return { query, city: how };
}

const texts = (tokens: readonly Token[]) => tokens.map((t) => t.text);

/**
 * `11 b 1080` with no postcode typed elsewhere: box 1080, or the house letter b and the postcode 1080
 * ("voorspoedstraat 11 b 1080 sint-jans-molenbeek"). The second reading's number and postcode, when the number's tail
 * is a lone `b` and a word of a postcode's shape; both readings are searched and the one the index holds answers.
 */
function letterThenPostcode(
  tokens: readonly Token[],
  number: NumberTokens,
  countries: readonly CountryCode[] | undefined,
): { number: string; postcode: string } | undefined {
  if (number.length !== 3) return undefined;
  const [first, letter, code] = tokens.slice(number.start, number.start + 3) as [Token, Token, Token];
  if (letter.lower.replace(/\.$/, '') !== 'b') return undefined;
  const postcode = POSTCODE_PATTERNS.some(
    (p) => (!countries || countries.includes(p.country)) && p.pattern.test(code.lower),
  );
  return postcode ? { number: `${first.text} ${letter.text}`, postcode: code.text } : undefined;
}

/**
 * Readings of `text`, best guess first; [] when it holds no house number, or a mark that it has none (`zn`, `s/n`:
 * typedText.ts), or no street and no postcode. A locality in brackets and a country at the end are read first
 * (readTypedText); the country named keeps the postcode shapes to its own.
 */
export function readFreeText(text: string, options: FreeTextOptions): FreeTextReading[] {
  const { cities } = options;
  const typed = readTypedText(text, (words) => cities.namedExactly(words));
  if (typed.noNumber) return [];
  const countries = options.countries ?? (typed.country ? [typed.country] : undefined);
  const all = tokenise(typed.text);
  const postcode = findPostcode(all, countries);
  const tokens = postcode ? all.filter((_, i) => i < postcode.start || i >= postcode.start + postcode.length) : all;
  const number = findNumber(tokens, cities);
  if (!number) return [];
  const numberSegment = (tokens[number.start] as Token).segment;
  const before = tokens.slice(0, number.start);
  const after = tokens.slice(number.start + number.length);
  // The street: the words before the number in its own segment; the rest is the city (and country noise).
  const street = before.filter((t) => t.segment === numberSegment);
  const following = after.filter((t) => t.segment === numberSegment);
  const elsewhere = [...before.filter((t) => t.segment !== numberSegment), ...after];
  if (street.length === 0) return leadingNumberReadings(number.text, postcode?.text, following, elsewhere, cities);
  const readings: FreeTextReading[] = [];
  if (street.length > 0 || postcode) {
    readings.push(reading(street, number.text, postcode?.text, elsewhere, cities));
  }
  const letterAndPostcode = postcode ? undefined : letterThenPostcode(tokens, number, countries);
  if (letterAndPostcode && street.length > 0) {
    readings.push(reading(street, letterAndPostcode.number, letterAndPostcode.postcode, elsewhere, cities));
  }
  // Almere, Lelystad and Urk name streets with a number ("Markerkant 13", "Kogge 03", "Wijk 7"): "Kogge 03 2" is
  // street "Kogge 03", number 2 as often as number 3 with addition 2; "Jol 11 35 - 39" is Jol 11, 35 - 39.
  const second = tokens[number.start + 1];
  if (number.length >= 2 && street.length > 0 && second && isNumber(second)) {
    const inStreet = numberAt(tokens, number.start + 1, cities);
    const rest = [
      ...before.filter((t) => t.segment !== numberSegment),
      ...tokens.slice(inStreet.start + inStreet.length),
    ];
    readings.push(reading([...street, tokens[number.start]!], inStreet.text, postcode?.text, rest, cities));
  }
  // "55 Botter 33" (Lelystad's street Botter 33, number 55): a part that begins with a number may put it first
  // before a street named with a number; both are read and the index holds one.
  const lead = street[0]!;
  if (street.length >= 2 && isNumber(lead)) {
    const rest = [...street.slice(1), ...tokens.slice(number.start, number.start + number.length)];
    readings.push(reading(rest, lead.text, postcode?.text, elsewhere, cities));
  }
  // "Delft Mekelweg 8" without a comma: the leading words may be the city.
  for (let k = 1; k <= Math.min(cities.maxWords, street.length - 1); k++) {
    const lead = street.slice(0, k);
    if (cities.match(texts(lead))) readings.push(reading(street.slice(k), number.text, postcode?.text, lead, cities));
  }
  return readings.slice(0, MAX_READINGS);
}

/**
 * The number first, the words after it in its part: the street, or the street then the city when no comma parts
 * them ("8 Mekelweg Delft"); the city also from the other parts ("40 Avenue De Fré, 1180 Uccle"). Only when those
 * words are all a city's name and a postcode was typed ("2628 CD 8 Delft") is there no street. Words after the
 * number are never dropped for the postcode alone: "40 Avenue De Fré, 1180 Uccle" is not any number 40 in 1180.
 */
function numberFirstReadings(
  following: Token[],
  rest: Token[],
  number: string,
  postcode: string | undefined,
  cities: KnownCities,
): FreeTextReading[] {
  const split: FreeTextReading[] = [];
  for (let k = Math.min(cities.maxWords, following.length - 1); k >= 1; k--) {
    const tail = following.slice(-k);
    if (cities.match(texts(tail))) {
      split.push(reading(following.slice(0, -k), number, postcode, [...tail, ...rest], cities));
    }
  }
  const whole = reading(following, number, postcode, rest, cities);
  const readings = rest.length > 0 ? [whole, ...split] : [...split, whole];
  if (postcode && cities.match(texts(following))) readings.push(reading([], number, postcode, following, cities));
  return readings;
}

/**
 * No street word before the number in its part: the number first (numberFirstReadings), or the number alone in its
 * part with the postcode ("2628CD 8a", "9411 xj 3") or with the street and city in other parts ("Mekelweg, 8, Delft":
 * the city the last words that name one, the street the words before them).
 */
function leadingNumberReadings(
  number: string,
  postcode: string | undefined,
  following: Token[],
  elsewhere: Token[],
  cities: KnownCities,
): FreeTextReading[] {
  if (following.length > 0) {
    const rest = elsewhere.filter((t) => !following.includes(t));
    return numberFirstReadings(following, rest, number, postcode, cities).slice(0, MAX_READINGS);
  }
  const readings: FreeTextReading[] = [];
  if (postcode) readings.push(reading([], number, postcode, elsewhere, cities));
  if (elsewhere.length > 1) {
    for (let k = 1; k < elsewhere.length; k++) {
      const tail = elsewhere.slice(elsewhere.length - k);
      if (cities.match(texts(tail))) {
        readings.push(reading(elsewhere.slice(0, elsewhere.length - k), number, postcode, tail, cities));
      }
    }
    if (!postcode) readings.push(reading(elsewhere, number, undefined, [], cities));
  }
  const seen = new Set<string>();
  return readings
    .filter((r) => {
      const key = JSON.stringify(r.query);
      return !seen.has(key) && Boolean(seen.add(key));
    })
    .slice(0, MAX_READINGS);
}

/**
 * One answer list from several readings' candidates: best confidence first (a tie keeps the earlier reading's
 * order), each address once, at most `size`.
 */
export function mergeReadings<T extends { doc: { id: string }; confidence: number }>(lists: T[][], size: number): T[] {
  const seen = new Set<string>();
  const all = lists.flatMap((list, reading) => list.map((answer, rank) => ({ answer, reading, rank })));
  all.sort((a, b) => b.answer.confidence - a.answer.confidence || a.reading - b.reading || a.rank - b.rank);
  const out: T[] = [];
  for (const { answer } of all) {
    if (seen.has(answer.doc.id)) continue;
    seen.add(answer.doc.id);
    out.push(answer);
    if (out.length === size) break;
  }
  return out;
}

/**
 * Which readings the next forward tier runs for, from every reading's graded answers so far (one list per
 * reading): the readings without an answer, and none once any answer outranks what the fuzzy tiers can find
 * (outranksFuzzyTier). So the exact tier runs for every reading (nothing is answered yet), and the fuzzy tiers,
 * the costly searches, only for readings the exact tier missed and only while no reading is confident: a wrong
 * split of street and city ("Delft Mekelweg 8" read as the street "Delft Mekelweg") finds nothing exactly, and its
 * look-alike streets could only rank below the right reading's confident answer, also when that answer is the
 * number without the addition or range typed ("Delft Mekelweg 8 - 10": 0.9).
 */
export function readingsForNextTier(lists: readonly (readonly { confidence: number }[])[]): number[] {
  if (lists.some((list) => list.some(outranksFuzzyTier))) return [];
  return lists.flatMap((list, reading) => (list.length === 0 ? [reading] : []));
}
