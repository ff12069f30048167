/**
 * The house-number tail: which words after a house number's first word belong to it in free text, one reading for
 * every entry point that reads a whole text (the search box and the dialects through it; the structured `number`
 * field of forward, lookup and batch is read whole by parseHouseNumber). Pure; part of the shared reading rules
 * (readingRules.ts holds the word lists it uses).
 *
 * The forms, each a table row in test/unit/numberTail.test.ts with real register values:
 * - a box word and the box: `bus`, `bte`, `bt`, `boîte`, `b`, with or without a dot (`bte.`, `bt.`), then the box
 *   as the register writes it (`3`, `2.11`, `F/88`, `0M/H`, `7étR`, `RCà2`, `b 2`, `A 10`, `7 RC`); letters only
 *   after a spelled-out box word and when no known city starts with it;
 * - a lone dash: `117 -1`, `368 -211`;
 * - a spaced dash: `56 - 206` (an addition; or a range, the number alone: the index decides, see addressBodies);
 * - a bare word: `32a rc`, `556 3e`, `3 et01`, `8 a`, `12 bis`, `13 120`, and a number after a letter (`139 a 1`).
 * What the tail makes is one suffix key (letter + addition, compacted), so a box and an addition are the same thing
 * to the index: the register's `b 2`, `b2` and `B-2` all meet.
 */
import { isBoxValue, isBoxWord, SUFFIX_WORD_RE } from './readingRules.js';

export interface NumberTail {
  /** Words taken after the number's first word. */
  length: number;
  /** The number's word and its tail, as parseHouseNumber reads it ("114 bt 3", "56 - 206"). */
  text: string;
}

/** Most words a tail takes ("bus b 2" is three; "139 a 1" two). */
const MAX_TAIL_WORDS = 4;
/** Longest box or addition word, compacted: the register's longest are six (`RCBV12`); a city is longer. */
const MAX_WORD = 8;
/** Longest word after the tail's first one ("139 a 1"): shorter than a Belgian postcode (`1050`). */
const MAX_LATER_WORD = 3;
const DASH_ONLY_RE = /^[-\u2010-\u2015]+$/;
const LONE_DASH_RE = /^[-\u2010-\u2015]+(?=[\p{L}\p{N}])/u;
const COMBINING_RE = /\p{M}+/gu;
const TRAILING_DOTS_RE = /\.+$/;

/** Lower case, accents off: "7étR" -> "7etr", "Boîte" -> "boite". */
function fold(word: string): string {
  return word.normalize('NFKD').replace(COMBINING_RE, '').toLowerCase();
}

/** Letters and digits only: "2.11" -> "211", "0M/H" -> "0mh", "RCà2" -> "rca2". */
function compact(word: string): string {
  return fold(word).replace(/[^a-z0-9]/g, '');
}

const hasDigit = (word: string) => /\d/.test(word);

/** A box word, with or without its dot: `bus`, `bte.`, `bt.`, `boîte`, `b.`. */
function boxWord(word: string): string | undefined {
  const w = fold(word).replace(TRAILING_DOTS_RE, '');
  return isBoxWord(w) ? w : undefined;
}

/**
 * One word of a box or addition as written: a short code whose letters and digits make a key (`2.11`, `F/88`,
 * `7étR`, `rc`, `et01`), punctuation allowed inside it but not making all of it.
 */
function codeWord(word: string): string | undefined {
  const c = compact(word);
  return c.length >= 1 && c.length <= MAX_WORD ? c : undefined;
}

/** How many words after a box word are its box (0: none): `3`, `2.11`, `A`, or the register's two-word `b 2`, `7 RC`. */
function boxLength(word: string, rest: readonly string[], isCityStart: (word: string) => boolean): number {
  const [first, second] = rest;
  const value = first === undefined ? undefined : codeWord(first);
  if (first === undefined || value === undefined) return 0;
  // The register's spaced boxes: a letter or two, then a code with a digit ("b 2", "A 10", "b 5E").
  const next = second === undefined ? undefined : codeWord(second);
  if (/^[a-z]{1,2}$/.test(value) && next !== undefined && hasDigit(next) && next.length <= 4) return 2;
  // ... or a code with a digit, then a floor's letters ("7 RC", "2 D").
  const floor = next !== undefined && /^[a-z]{1,2}$/.test(next) && !isCityStart(second!);
  if (hasDigit(value)) return floor && value.length <= 4 ? 2 : 1;
  return isBoxValue(word, value) && !isCityStart(first) ? 1 : 0;
}

/** A word standing alone after the number that is part of it: a code with a digit, `rc`, or SUFFIX_WORD_RE's. */
function bareLength(word: string, first: boolean, isCityStart: (word: string) => boolean): number {
  if (isCityStart(word)) return 0;
  const value = codeWord(word);
  if (value === undefined) return 0;
  // After another word of the tail, only a short code ("139 a 1"): a four-digit word there is a postcode.
  if (hasDigit(value) && /^[\p{L}\p{N}]/u.test(word)) return first || value.length <= MAX_LATER_WORD ? 1 : 0;
  // Letters alone only right after the number ("8 a", "12 bis", "1 ii", "32a rc"), never a second one.
  return first && (value === 'rc' || SUFFIX_WORD_RE.test(fold(word))) ? 1 : 0;
}

/**
 * The tail of the house number whose first word is `number`, read from the words after it in the same part of the
 * text (`after`: up to the next comma). `isCityStart`: whether some known city's name starts with the word (a word
 * of letters that begins a city is the city: "16 bus Ede", "8 b Delft"). Always answers; length 0: no tail.
 */
export function readNumberTail(
  number: string,
  after: readonly string[],
  isCityStart: (word: string) => boolean,
): NumberTail {
  let at = 0;
  while (at < after.length && at < MAX_TAIL_WORDS) {
    const word = after[at] as string;
    const rest = after.slice(at + 1);
    let taken = 0;
    const box = boxWord(word);
    if (box !== undefined) taken = boxLength(box, rest, isCityStart);
    if (taken > 0) taken += 1;
    else if (DASH_ONLY_RE.test(word)) {
      // A spaced dash: "56 - 206", "1 - II".
      const value = rest[0] === undefined ? undefined : codeWord(rest[0]);
      if (value !== undefined && (hasDigit(value) || (at === 0 && !isCityStart(rest[0]!)))) taken = 2;
    } else if (LONE_DASH_RE.test(word)) {
      // A lone dash glued to the addition: "117 -1", "368 -211".
      if (codeWord(word) !== undefined) taken = 1;
    } else taken = bareLength(word, at === 0, isCityStart);
    if (taken === 0 || at + taken > MAX_TAIL_WORDS) break;
    at += taken;
  }
  return { length: at, text: [number, ...after.slice(0, at)].join(' ') };
}
