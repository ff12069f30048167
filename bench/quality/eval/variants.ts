/**
 * How people mistype addresses: pure generators of query variants, each driven by a seeded Rng. Every
 * generator returns undefined when it has nothing meaningful to produce for an address (a name without
 * an abbreviatable part, a house number without a suffix, ...).
 */
import { readFileSync } from 'node:fs';
import { streetKey } from '../../../core/text/normalise.js';
import { osaDistance } from './distance.js';
import type { Rng } from './rng.js';

interface AbbreviationData {
  titles: Record<string, string>;
  royalTitles: Record<string, { female: string; male: string }>;
  ordinals: Record<string, string>;
  streetTypes: Record<string, string>;
  minStem: number;
}

const ABBR: AbbreviationData = JSON.parse(
  readFileSync(new URL('../../../core/text/streetAbbreviations.json', import.meta.url), 'utf8'),
) as AbbreviationData;

function invert(record: Record<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [abbr, full] of Object.entries(record)) out.set(full, [...(out.get(full) ?? []), abbr]);
  return out;
}

/** full word -> the abbreviations people write for it (from the normaliser's own data file). */
const TITLE_ABBREVIATIONS = invert(ABBR.titles);
for (const [abbr, { female, male }] of Object.entries(ABBR.royalTitles)) {
  for (const full of [female, male]) TITLE_ABBREVIATIONS.set(full, [...(TITLE_ABBREVIATIONS.get(full) ?? []), abbr]);
}
const ORDINAL_ABBREVIATIONS = invert(ABBR.ordinals);
/** Longest full form first, so "...plantsoen" is not read as "...-soen". */
const STREET_TYPE_ABBREVIATIONS = [...invert(ABBR.streetTypes).entries()].sort((a, b) => b[0].length - a[0].length);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const COMBINING_MARKS_RE = /\p{M}+/gu;
const isUpper = (s: string): boolean => s !== s.toLowerCase() && s === s.toUpperCase();
const capitalLike = (model: string, word: string): string =>
  model.length > 0 && isUpper(model[0] as string) ? (word[0] as string).toUpperCase() + word.slice(1) : word;

export function stripDiacritics(s: string): string {
  return s.normalize('NFKD').replace(COMBINING_MARKS_RE, '').normalize('NFC');
}

// ---------------------------------------------------------------------------------------------- case

export function caseVariant(name: string, rng: Rng): string | undefined {
  const options = [
    () => name.toLowerCase(),
    () => name.toUpperCase(),
    () => [...name].map((c) => (rng.chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join(''),
    () => [...name].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  ];
  for (let attempt = 0; attempt < 6; attempt++) {
    const v = rng.pick(options)();
    if (v !== name) return v;
  }
  return undefined;
}

// ------------------------------------------------------------------------- diacritics / punctuation

/**
 * Without diacritics (whenever the name has any) and with punctuation a client adds or drops: a trailing
 * dot or comma, a hyphen or dot between words, doubled spaces, apostrophes and hyphens left out.
 */
export function punctuationVariant(name: string, rng: Rng): string | undefined {
  const v = stripDiacritics(name);
  const hadDiacritics = v !== name;
  const edits: ((s: string) => string)[] = [
    (s) => `${s}${rng.pick(['.', ',', ' .', ';'])}`,
    (s) => (s.includes(' ') ? replaceNth(s, ' ', rng, rng.pick(['-', '.', '. ', '  ', ' - ', ', '])) : `${s}.`),
    (s) => (/['’`-]/.test(s) ? s.replace(/['’`]/g, '').replace(/-/g, ' ') : `${s},`),
    (s) => `${rng.pick(['"', '(', ' '])}${s}${rng.pick(['"', ')', ' '])}`,
    (s) => s.replace(/ /g, '  '),
  ];
  if (hadDiacritics && rng.chance(0.5)) return v;
  for (let attempt = 0; attempt < 5; attempt++) {
    const edited = rng.pick(edits)(v);
    if (edited !== name) return edited;
  }
  return hadDiacritics ? v : undefined;
}

function replaceNth(s: string, needle: string, rng: Rng, replacement: string): string {
  const positions: number[] = [];
  for (let i = s.indexOf(needle); i !== -1; i = s.indexOf(needle, i + 1)) positions.push(i);
  const at = rng.pick(positions);
  return s.slice(0, at) + replacement + s.slice(at + needle.length);
}

// ------------------------------------------------------------------------------------- abbreviated

interface Rewrite {
  /** word index range [from, to) replaced */
  from: number;
  to: number;
  make: (rng: Rng) => string;
}

/**
 * The abbreviations a Dutch writer uses, in the positions they use them: a street type at the end of a
 * word or as a word after another ("Woogstr.", "Oude Gr."), a title, particle or ordinal in front of a
 * following word ("Burg.", "Prof.", "St.", "v.d.", "v.", "1e"). The abbreviation lists come from the
 * normaliser's own data file; the positions are what people write, not what the normaliser happens to
 * accept.
 */
function abbreviationRewrites(name: string): { words: string[]; rewrites: Rewrite[] } {
  const words = name.split(' ').filter((w) => w !== '');
  const lower = words.map((w) => stripDiacritics(w).toLowerCase().replace(/[.]+$/, ''));
  const rewrites: Rewrite[] = [];
  const dot = (rng: Rng) => (rng.chance(0.6) ? '.' : '');
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const lw = lower[i] as string;
    const hasNext = i + 1 < words.length;
    if (hasNext) {
      const title = TITLE_ABBREVIATIONS.get(lw);
      if (title) rewrites.push({ from: i, to: i + 1, make: (rng) => capitalLike(w, rng.pick(title)) + dot(rng) });
      const ordinal = ORDINAL_ABBREVIATIONS.get(lw);
      if (ordinal) rewrites.push({ from: i, to: i + 1, make: (rng) => rng.pick(ordinal) });
      if (lw === 'van' && lower[i + 1] === 'der' && i + 2 < words.length) {
        rewrites.push({
          from: i,
          to: i + 2,
          make: (rng) => capitalLike(w, rng.pick(['v.d.', 'vd', 'v/d', 'v.d', 'vd.'])),
        });
      } else if (lw === 'van' && lower[i + 1] !== 'de' && lower[i + 1] !== 'den') {
        rewrites.push({ from: i, to: i + 1, make: (rng) => capitalLike(w, rng.pick(['v.', 'v'])) });
      }
    }
    for (const [full, abbrs] of STREET_TYPE_ABBREVIATIONS) {
      if (!lw.endsWith(full) || !/^[a-z]+$/.test(lw)) continue;
      const stem = w.length - full.length;
      if (stem === 0 && i > 0) {
        rewrites.push({ from: i, to: i + 1, make: (rng) => capitalLike(w, rng.pick(abbrs)) + dot(rng) });
      } else if (stem >= ABBR.minStem) {
        rewrites.push({ from: i, to: i + 1, make: (rng) => w.slice(0, stem) + rng.pick(abbrs) + dot(rng) });
      }
      break;
    }
  }
  return { words, rewrites };
}

export function abbreviatable(name: string): boolean {
  return abbreviationRewrites(name).rewrites.length > 0;
}

export function abbreviatedVariant(name: string, rng: Rng): string | undefined {
  const { words, rewrites } = abbreviationRewrites(name);
  if (rewrites.length === 0) return undefined;
  // A random non-empty set of non-overlapping rewrites.
  const chosen: Rewrite[] = [];
  const used = new Set<number>();
  const order = rewrites.map((r) => ({ r, k: rng.next() })).sort((a, b) => a.k - b.k);
  for (const [n, { r }] of order.entries()) {
    if (n > 0 && !rng.chance(0.5)) continue;
    let free = true;
    for (let i = r.from; i < r.to; i++) if (used.has(i)) free = false;
    if (!free) continue;
    for (let i = r.from; i < r.to; i++) used.add(i);
    chosen.push(r);
  }
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const r = chosen.find((c) => c.from === i);
    if (r) {
      out.push(r.make(rng));
      i = r.to - 1;
    } else if (!used.has(i)) out.push(words[i] as string);
  }
  const v = out.join(' ');
  return v === name ? undefined : v;
}

// ------------------------------------------------------------------------------------------- typos

/**
 * `edits` random keyboard-style typos (substitution, deletion, insertion, transposition of neighbours)
 * on letters after the first one: the first letter is what people get right, and what the matcher
 * protects. Returns a variant whose street key is at exactly `edits` from the original key.
 */
export function typoVariant(name: string, edits: number, rng: Rng): string | undefined {
  const originalKey = streetKey(name);
  for (let attempt = 0; attempt < 20; attempt++) {
    let s = name;
    for (let e = 0; e < edits; e++) s = oneTypo(s, rng);
    if (osaDistance(streetKey(s), originalKey, edits) === edits) return s;
  }
  return undefined;
}

function oneTypo(s: string, rng: Rng): string {
  const letterAt: number[] = [];
  let first = true;
  for (let i = 0; i < s.length; i++) {
    if (!/\p{L}/u.test(s[i] as string)) continue;
    if (first) {
      first = false;
      continue;
    }
    letterAt.push(i);
  }
  if (letterAt.length === 0) return s;
  const i = rng.pick(letterAt);
  const ch = s[i] as string;
  const randomLetter = () => {
    let c = rng.pick([...LETTERS]);
    while (c === ch.toLowerCase()) c = rng.pick([...LETTERS]);
    return isUpper(ch) ? c.toUpperCase() : c;
  };
  switch (rng.int(4)) {
    case 0:
      return s.slice(0, i) + randomLetter() + s.slice(i + 1);
    case 1:
      return s.slice(0, i) + s.slice(i + 1);
    case 2:
      return s.slice(0, i) + randomLetter() + s.slice(i);
    default: {
      const j = i + 1 < s.length && /\p{L}/u.test(s[i + 1] as string) ? i + 1 : i - 1;
      const [a, b] = j > i ? [i, j] : [j, i];
      if (a === 0) return s.slice(0, i) + randomLetter() + s.slice(i + 1);
      return s.slice(0, a) + (s[b] as string) + (s[a] as string) + s.slice(b + 1);
    }
  }
}

// ---------------------------------------------------------------------------------- house numbers

/** The spellings of number + suffix people use: "12a", "12 A", "12-A", "139A-1", "139 a 1", "1-II", "12bis", "12 hs". */
export function suffixSpelling(
  number: string,
  letter: string,
  addition: string,
  rng: Rng,
): { number: string; suffix?: string } | undefined {
  if (letter === '' && addition === '') return undefined;
  const L = letter.toUpperCase();
  const A = addition.toUpperCase();
  const startsWithLetter = /^[a-z]/.test(addition);
  const options: { number: string; suffix?: string }[] = [];
  if (letter !== '' && addition === '') {
    options.push(
      { number: `${number}${letter}` },
      { number: `${number}${L}` },
      { number: `${number} ${L}` },
      { number: `${number} ${letter}` },
      { number: `${number}-${L}` },
      { number: `${number}-${letter}` },
      { number, suffix: L },
      { number, suffix: letter },
    );
  } else if (letter !== '') {
    options.push(
      { number: `${number}${L}-${A}` },
      { number: `${number} ${letter} ${addition}` },
      { number: `${number}${letter}${startsWithLetter ? ' ' : ''}${addition}` },
      { number: `${number}-${L}-${A}` },
      { number: `${number}${L} ${A}` },
      { number: `${number} ${L}-${A}` },
      { number, suffix: `${L}-${A}` },
      { number, suffix: `${letter} ${addition}` },
    );
  } else {
    options.push(
      { number: `${number}-${A}` },
      { number: `${number} ${addition}` },
      { number: `${number} ${A}` },
      { number: `${number}/${A}` },
      { number, suffix: A },
      { number, suffix: `-${addition}` },
    );
    if (startsWithLetter && !/^[a-z][0-9]/.test(addition)) options.push({ number: `${number}${addition}` });
  }
  return rng.pick(options);
}

/** "2628CD" -> "2628 CD" / "2628cd" / "2628 cd"; a Belgian "1000" stays as it is. */
export function postcodeSpelling(postcode: string, rng: Rng): string {
  const m = /^(\d{4})\s*([A-Za-z]{2})$/.exec(postcode.trim());
  if (!m) return postcode;
  const [, digits, letters] = m as unknown as [string, string, string];
  const l = rng.chance(0.5) ? letters.toUpperCase() : letters.toLowerCase();
  return rng.chance(0.5) ? `${digits} ${l}` : `${digits}${l}`;
}

// ----------------------------------------------------------------------------------- nonexistent

const SYLLABLES = ['ber', 'don', 'ka', 'lin', 'mo', 'rup', 'ste', 'vo', 'wil', 'zan', 'gel', 'tor', 'nik', 'pa', 'hu'];
const TYPES = ['straat', 'laan', 'weg', 'plein', 'gracht', 'kade', 'singel', 'hof', 'dijk', 'pad'];

/**
 * A plausible street name that is no real one: a real name with 3-4 edits, a real stem with another street
 * type, or made-up syllables with a street type. The caller checks the distance to every real street.
 */
export function inventedStreet(name: string, otherNames: readonly string[], rng: Rng): string {
  switch (rng.int(3)) {
    case 0: {
      let s = name;
      const edits = 3 + rng.int(2);
      for (let e = 0; e < edits; e++) s = oneTypo(s, rng);
      return s;
    }
    case 1: {
      const other = rng.pick(otherNames);
      const stem = other.replace(/(straat|laan|weg|plein|gracht|kade|singel|hof|dijk|pad|steeg)$/i, '');
      return `${stem}${rng.pick(TYPES)}`;
    }
    default: {
      const n = 2 + rng.int(2);
      let s = '';
      for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
      return (s[0] as string).toUpperCase() + s.slice(1) + rng.pick(TYPES);
    }
  }
}
