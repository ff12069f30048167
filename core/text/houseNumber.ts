/**
 * Dutch/Belgian house numbers: number + optional letter (BAG "huisletter") + optional addition
 * (BAG "toevoeging", Brussels box/floor such as "b003", "RC+2", "3ét").
 *
 * Matching uses suffixKey (letter + addition, separators removed), so it never depends on where a
 * spelling puts the boundary between letter and addition: "3 b003" (letter b, addition 003) and a
 * Brussels row with addition column "b003" both have key "b003". The split only affects display.
 *
 * Spelling decisions:
 * - One letter right after the number, glued or after a space/dash/dot, followed by nothing, a
 *   separator or a digit, is the letter: "12a" = "12 A" = "12-A" = letter a; "139A-1" = "139 a 1" =
 *   "139a1" = letter a + addition 1; "96C1" = letter c + addition 1; "1e5" = letter e + addition 5
 *   (same shape as "10A3" in real data, so not read as a float). So "1-I" reads as letter i, though
 *   BAG/OSM columns say addition I: same key, only the display differs ("1I" vs "1-I").
 * - A run of two or more letters is an addition: "1-II" -> ii, "12bis" -> bis, "12 hs" -> hs,
 *   "16EA" -> ea (Brussels: not split into e + a), "rc+2" -> rc2. Exception: one letter glued to a
 *   known addition word splits: "12abis" = "12a bis" = letter a + addition bis.
 * - Digits after the number are an addition: "12-2" = "12/2" = "12 2" -> 2; a range "12-14" is NOT a
 *   range but number 12 + addition 14 (BAG toevoegingen are often numeric).
 * - Rejected (null) by parseHouseNumber: "", no leading digits ("abc", "-1"), 0, above 99999,
 *   a decimal "12.5"/"12,5", characters other than letters/digits/separators ("12?"), a
 *   suffix longer than 10 letters/digits (free text that is not a house number).
 *   Leading zeros are ignored ("012" -> 12). Diacritics are folded ("3ét" -> addition 3et).
 */
import { BOX_WORDS } from './readingRules.js';

export interface HouseNumber {
  number: number;
  letter: string;
  addition: string;
}

type Suffix = Pick<HouseNumber, 'letter' | 'addition'>;

const MAX_FREE_TEXT_SUFFIX = 10;
// Leading zeros are dropped and at most five digits follow, which bounds the number to 1..99999.
const NUMBER_RE = /^0*([1-9][0-9]{0,4})(?![0-9])/;
const DECIMAL_RE = /^[.,][0-9]+$/;
const ALLOWED_RE = /^[a-z0-9\s\-\u2010-\u2015/\\.,+_'\u2018\u2019\u00b0#:()]*$/;
const NON_ALNUM_RE = /[^a-z0-9]+/g;
const LEADING_SEPARATORS_RE = /^[^a-z0-9]+/;
const LETTER_RUN_RE = /^[a-z]+/;
// Brussels exports contain URL-encoded spaces ("b%20%207").
const PERCENT_ENCODED_RE = /%[0-9a-f]{2}/gi;
const NON_ASCII_RE = /[\u0080-\uffff]/;
const COMBINING_MARKS_RE = /\p{M}+/gu;
// A letter glued to one of these is letter + addition ("12abis"); alone they are additions.
const ADDITION_WORDS = new Set(['bis', 'ter', 'quater', 'hs', 'huis', 'bg', 'boven', 'beneden']);

function fold(input: string): string {
  const s = input.toLowerCase();
  if (!NON_ASCII_RE.test(s)) return s;
  return s.normalize('NFKD').replace(COMBINING_MARKS_RE, '').toLowerCase();
}

function isLetter(ch: string | undefined): boolean {
  return ch !== undefined && ch >= 'a' && ch <= 'z';
}

/**
 * A Belgian box word before the box ("bus 3", "bte 3", "boîte 3", folded "boite"), at the start of the suffix or
 * after the house letter ("27A bus 3"): the box is what follows, so "117 bus 1" has the suffix key "1", like
 * "117/1", and "27A bus 3" the key "a3". "b 3", "b3" and "bt 3" stay as written (b3, bt3): the register writes boxes
 * that way too ("b003", "BT03"), and boxKeys() makes the spellings meet.
 */
const BOX_WORD_RE = new RegExp(
  `^([a-z][^a-z0-9]+)?(?:${BOX_WORDS.filter((w) => w.length > 2 && !NON_ASCII_RE.test(w)).join('|')})(?=[^a-z]|$)`,
);

/** Splits a folded suffix ("a-1", " bis", "ea") into letter and addition; separators are dropped. */
function splitSuffix(rest: string): Suffix {
  const t = rest
    .replace(LEADING_SEPARATORS_RE, '')
    .replace(BOX_WORD_RE, (_, letter: string | undefined) => (letter ? `${letter[0]} ` : ''))
    .replace(LEADING_SEPARATORS_RE, '');
  const compact = t.replace(NON_ALNUM_RE, '');
  if (compact === '') return { letter: '', addition: '' };
  const first = t[0];
  if (isLetter(first)) {
    if (!isLetter(t[1])) return { letter: first as string, addition: compact.slice(1) };
    const run = (LETTER_RUN_RE.exec(t) as RegExpExecArray)[0];
    if (!ADDITION_WORDS.has(run) && ADDITION_WORDS.has(run.slice(1))) {
      return { letter: first as string, addition: compact.slice(1) };
    }
  }
  return { letter: '', addition: compact };
}

/** Parses a free-text house number ("12", "12A", "139A-1", "1-II", "2BIS"); null when it is not one. */
export function parseHouseNumber(input: string): HouseNumber | null {
  const s = fold(input).replace(PERCENT_ENCODED_RE, ' ').trim();
  const m = NUMBER_RE.exec(s);
  if (m === null) return null;
  const number = Number(m[1]);
  const rest = s.slice(m[0].length);
  if (rest === '') return { number, letter: '', addition: '' };
  if (DECIMAL_RE.test(rest) || !ALLOWED_RE.test(rest)) return null;
  const suffix = splitSuffix(rest);
  if (suffix.letter.length + suffix.addition.length > MAX_FREE_TEXT_SUFFIX) return null;
  return { number, letter: suffix.letter, addition: suffix.addition };
}

const ALNUM_RE = /^[a-zA-Z0-9]*$/;
const PLAIN_NUMBER_RE = /^[1-9][0-9]{0,4}$/;

function compactField(input: string): string {
  if (ALNUM_RE.test(input)) return input.toLowerCase();
  return fold(input).replace(PERCENT_ENCODED_RE, ' ').replace(NON_ALNUM_RE, '');
}

/**
 * Parses a source that already splits the fields. The columns' split is kept (a Brussels box
 * "b003" in the addition column stays addition "b003"); suffixKey always equals that of
 * parseHouseNumber on the joined string. Unlike free text, a raw form left in the number column is
 * trusted: "39.1" and "1/10" are number + addition, "122/" is 122, and junk characters in the
 * addition ("b2[3", "N°5", "??") are dropped rather than rejecting the address.
 */
export function parseHouseNumberParts(number: string, letter: string, addition: string): HouseNumber | null {
  const l = compactField(letter);
  const a = compactField(addition);
  if (PLAIN_NUMBER_RE.test(number)) {
    const value = Number(number);
    if (l.length === 1 && isLetter(l)) return { number: value, letter: l, addition: a };
    return { number: value, letter: '', addition: l + a };
  }
  const n = fold(number).trim();
  const m = NUMBER_RE.exec(n);
  if (m === null) return null;
  const value = Number(m[1]);
  const raw = n.slice(m[0].length);
  const base = raw === '' ? { letter: '', addition: '' } : splitSuffix(raw);
  if (l === '' && a === '') return { number: value, letter: base.letter, addition: base.addition };
  if (base.letter === '' && base.addition === '') {
    if (l.length === 1 && isLetter(l)) return { number: value, letter: l, addition: a };
    return { number: value, letter: '', addition: l + a };
  }
  return { number: value, letter: base.letter, addition: base.addition + l + a };
}

/**
 * The prefixes the register writes before a numeric box: none, `b`, and the box words themselves (`BT01`: 13,019
 * Brussels addresses, `BTE4`, `BUS1`). A box word typed before the digits is read off by parseHouseNumber, so
 * these spellings meet the typed box only here.
 */
const BOX_PREFIXES = ['', 'b', 'bt', 'bte', 'bus'] as const;
/** A box as digits, optionally after one of BOX_PREFIXES: "3", "0003", "b003", "B3", "BT03" (compared as "3"). */
const NUMERIC_BOX_RE = /^(?:b|bt|bte|bus)?(0*([1-9][0-9]{0,3}))$/;
/**
 * A house letter and a numeric box: the register writes `27A` + `003` (key "a003") or `1A` + `b04` ("ab04"), people
 * "27A bus 3" ("a3") or "1A bt. 4" ("abt4"). Compared like a bare box after the letter, zeros and box prefix aside
 * ("a3" = "a003" = "ab03" = "abt3").
 */
const LETTERED_BOX_RE = /^([ac-z])(?:b|bt|bte|bus)?(0*([1-9][0-9]{0,3}))$/;
/** Zero-padded widths the register writes boxes in ("0003", "b003"): up to four digits. */
const BOX_WIDTH = 4;

/** The box a key spells: its house letter ('' for none), its digits without zeros, and how wide it writes them. */
interface Box {
  letter: string;
  digits: string;
  width: number;
}

function boxOf(key: string): Box | undefined {
  const m = NUMERIC_BOX_RE.exec(key);
  if (m) return { letter: '', digits: m[2] as string, width: (m[1] as string).length };
  const lettered = LETTERED_BOX_RE.exec(key);
  if (lettered)
    return { letter: lettered[1] as string, digits: lettered[3] as string, width: (lettered[2] as string).length };
  return undefined;
}

/**
 * The suffix keys that spell the same Belgian box as `key`: digits are compared without leading zeros or a
 * prefix ("3" = "03" = "0003" = "b3" = "b003" = "bt03" = "bus3"), after a house letter without leading zeros ("a3" =
 * "a003"); anything else (`et02`, `rc`, `a1b`) only as written. The stored key is what the register wrote, so a lookup asks for every spelling (at most twenty
 * terms), the spelling asked first.
 */
export function boxKeys(key: string): string[] {
  const box = boxOf(key);
  if (!box) return [key];
  const padded: string[] = [];
  for (let width = box.digits.length; width <= BOX_WIDTH; width++) padded.push(box.digits.padStart(width, '0'));
  const keys = BOX_PREFIXES.flatMap((prefix) => padded.map((p) => `${box.letter}${prefix}${p}`));
  return [key, ...keys.filter((k) => k !== key)];
}

/**
 * Whether the stored suffix key `stored` is one of boxKeys(`asked`): the same box in another of the register's
 * spellings, or the key itself. Grading an answer asks this of every candidate, so no list is built.
 */
export function sameBox(asked: string, stored: string): boolean {
  if (asked === stored) return true;
  const a = boxOf(asked);
  const s = a && boxOf(stored);
  return s !== undefined && s.letter === a!.letter && s.digits === a!.digits && s.width <= BOX_WIDTH;
}

/** The keyword stored and matched: letter + addition ("a1"), "" when there is none. */
export function suffixKey(h: Suffix): string {
  return h.letter + h.addition;
}

/**
 * Display form to append directly to the number, BAG style: letter uppercased and glued, addition
 * uppercased after a dash: "A", "A-1", "-II", "-2", "-BIS"; "" when there is none.
 */
export function formatSuffix(letter: string, addition: string): string {
  const l = letter.toUpperCase();
  return addition === '' ? l : `${l}-${addition.toUpperCase()}`;
}

/** Parses an optional suffix request field ("a", "A-1", "a 1", "-2", "bis"); unknown characters are ignored. */
export function parseSuffix(input: string): Suffix {
  return splitSuffix(fold(input).replace(PERCENT_ENCODED_RE, ' '));
}
