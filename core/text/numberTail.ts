/**
 * The house-number tail: which words after a house number's first word belong to it in free text, one reading for
 * every entry point that reads a whole text (the search box and the dialects through it; the structured `number`
 * field of forward, lookup and batch is read whole by parseHouseNumber). Pure; part of the shared reading rules
 * (readingRules.ts holds the word lists it uses).
 *
 * The forms, each a table row in test/unit/core/text/numberTail.test.ts with real register values:
 * - a box word and the box: `bus`, `bte`, `bt`, `boîte`, `b`, with or without a dot (`bte.`, `bt.`), then the box
 *   as the register writes it (`3`, `2.11`, `F/88`, `0M/H`, `7étR`, `RCà2`, `b 2`, `A 10`, `7 RC`); letters only
 *   after a spelled-out box word;
 * - a lone dash, slash or dot: `117 -1`, `368 -211`, `64a /5`, `8 .02`;
 * - a spaced dash: `56 - 206` (an addition; or a range, the number alone: the index decides, see addressBodies);
 * - a bare word: `32a rc`, `556 3e`, `3 et01`, `7 etrc`, `8 a`, `12 bis`, `13 120`, and a short code after it
 *   (`139 a 1`).
 * Words that begin a known city's name are never a tail (`startsCity`).
 * What the tail makes is one suffix key (letter + addition, compacted), so a box and an addition are the same thing
 * to the index: the register's `b 2`, `b2` and `B-2` all meet.
 */
import { isBoxValue, isBoxWord, SUFFIX_WORD_RE } from './readingRules.js';

/** Whether these words, from the first on, begin with a known city's name. */
export type CityTest = (words: readonly string[]) => boolean;

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
/** A dash or slash standing alone ("56 - 206", "64a / 5") or glued to the addition ("117 -1", "64a /5"). */
const DASH_ONLY_RE = /^[-\u2010-\u2015/]+$/;
/** ... or a dot before a box the register writes after one (`.02`, `.2E`). */
const LONE_DASH_RE = /^[-\u2010-\u2015/.]+(?=[\p{L}\p{N}])/u;
/** A floor code of letters the register writes as the box (`rc`, `ss`, `etrc`, `rdch`, `gv`): up to four letters. */
const LETTER_CODE_RE = /^[a-z]{1,4}$/;
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
function boxLength(word: string, rest: readonly string[], startsCity: CityTest): number {
  const [first, second] = rest;
  const value = first === undefined ? undefined : codeWord(first);
  if (first === undefined || value === undefined) return 0;
  // The register's spaced boxes: a letter or two, then a code with a digit ("b 2", "A 10", "b 5E").
  const next = second === undefined ? undefined : codeWord(second);
  if (/^[a-z]{1,2}$/.test(value) && next !== undefined && hasDigit(next) && next.length <= 4) return 2;
  // ... or a code with a digit, then a floor's letters ("7 RC", "2 D").
  const floor = next !== undefined && /^[a-z]{1,2}$/.test(next) && !startsCity(rest.slice(1));
  if (hasDigit(value)) return floor && value.length <= 4 ? 2 : 1;
  return isBoxValue(word, value) && !startsCity(rest) ? 1 : 0;
}

/**
 * A word standing alone after the number that is part of it: a code with a digit; right after the number also a
 * code of up to four letters (the register's floors `rc`, `ss`, `etrc`, `gv`) or SUFFIX_WORD_RE's (`a`, `bis`, `ii`).
 * `words`: this word and those after it.
 */
function bareLength(words: readonly string[], first: boolean, startsCity: CityTest): number {
  const word = words[0] as string;
  if (startsCity(words)) return 0;
  const value = codeWord(word);
  if (value === undefined) return 0;
  // After another word of the tail, only a short code ("139 a 1"): a four-digit word there is a postcode.
  if (hasDigit(value) && /^[\p{L}\p{N}]/u.test(word)) return first || value.length <= MAX_LATER_WORD ? 1 : 0;
  // Letters alone only right after the number ("8 a", "12 bis", "1 ii", "32a rc", "7 etrc"), never a second one.
  return first && (LETTER_CODE_RE.test(value) || SUFFIX_WORD_RE.test(fold(word))) ? 1 : 0;
}

/**
 * The tail of the house number whose first word is `number`, read from the words after it in the same part of the
 * text (`after`: up to the next comma). `startsCity`: whether the words, from the first on, begin with a known city
 * (words that name a city are the city: "16 bus Ede", "8 Den Haag", "2 2e Exloërmond"; "556 2e Elsene" is a floor).
 * Always answers; length 0: no tail.
 */
export function readNumberTail(number: string, after: readonly string[], startsCity: CityTest): NumberTail {
  let at = 0;
  while (at < after.length && at < MAX_TAIL_WORDS) {
    const word = after[at] as string;
    const rest = after.slice(at + 1);
    let taken = 0;
    const box = boxWord(word);
    if (box !== undefined) taken = boxLength(box, rest, startsCity);
    if (taken > 0) taken += 1;
    else if (box !== undefined && box !== 'b')
      break; // a box word without a box ("8 bus Delft")
    else if (DASH_ONLY_RE.test(word)) {
      // A spaced dash: "56 - 206", "1 - II".
      const value = rest[0] === undefined ? undefined : codeWord(rest[0]);
      if (value !== undefined && (hasDigit(value) || (at === 0 && !startsCity(rest)))) taken = 2;
    } else if (LONE_DASH_RE.test(word)) {
      // A lone dash glued to the addition: "117 -1", "368 -211".
      if (codeWord(word) !== undefined) taken = 1;
    } else taken = bareLength(after.slice(at), at === 0, startsCity);
    if (taken === 0 || at + taken > MAX_TAIL_WORDS) break;
    at += taken;
  }
  return { length: at, text: [number, ...after.slice(0, at)].join(' ') };
}
