import { readFileSync } from 'node:fs';

interface AbbreviationData {
  titles: Record<string, string>;
  titleBlockedAfter: Record<string, string[]>;
  royalTitles: Record<string, { female: string; male: string }>;
  femaleRoyalNames: string[];
  particles: Record<string, string>;
  singleV: string;
  pairVD: string;
  ordinals: Record<string, string>;
  streetTypes: Record<string, string>;
  /** Street types abbreviated in front of the name (French): expanded as the first token only. Optional. */
  leadingStreetTypes?: Record<string, string>;
  minStem: number;
  /** Other expansions of an expansion that is a guess ("van der" for "vd" may be "van de"). Optional. */
  alternativeReadings?: Record<string, string[]>;
}

function loadAbbreviations(): AbbreviationData {
  const raw: unknown = JSON.parse(readFileSync(new URL('./streetAbbreviations.json', import.meta.url), 'utf8'));
  const data = raw as Partial<AbbreviationData>;
  const required: (keyof AbbreviationData)[] = [
    'titles',
    'titleBlockedAfter',
    'royalTitles',
    'femaleRoyalNames',
    'particles',
    'singleV',
    'pairVD',
    'ordinals',
    'streetTypes',
    'minStem',
  ];
  for (const key of required) {
    if (data[key] === undefined) throw new Error(`streetAbbreviations.json: missing "${key}"`);
  }
  return data as AbbreviationData;
}

const DATA = loadAbbreviations();

const mapOf = (record: Record<string, string>): Map<string, string> => new Map(Object.entries(record));

const TITLES = mapOf(DATA.titles);
const TITLE_BLOCKED_AFTER = new Map(Object.entries(DATA.titleBlockedAfter).map(([k, v]) => [k, new Set(v)]));
const ROYAL_TITLES = new Map(Object.entries(DATA.royalTitles));
const FEMALE_ROYAL_NAMES = [...DATA.femaleRoyalNames];
const PARTICLES = mapOf(DATA.particles);
const ORDINALS = mapOf(DATA.ordinals);
const STREET_TYPES = mapOf(DATA.streetTypes);
const LEADING_STREET_TYPES = mapOf(DATA.leadingStreetTypes ?? {});
// Longest first so "marktpln" is read as -pln (plein), not -ln (laan).
const STREET_TYPE_SUFFIXES: readonly [string, string][] = [...STREET_TYPES.entries()].sort(
  (a, b) => b[0].length - a[0].length,
);
const MIN_STEM = DATA.minStem;
const ALTERNATIVE_READINGS = new Map(Object.entries(DATA.alternativeReadings ?? {}));
const SINGLE_V = DATA.singleV;
const PAIR_VD = DATA.pairVD;

// Letters that NFKD does not decompose into base letter + combining mark.
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŀ: 'l',
  ħ: 'h',
  ŧ: 't',
};
const SPECIAL_LETTERS_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');
const replaceSpecial = (ch: string): string => SPECIAL_LETTERS[ch] ?? ch;

const ALREADY_NORMAL_RE = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const NON_ASCII_RE = /[\u0080-\uffff]/;
const COMBINING_MARKS_RE = /\p{M}+/gu;
const ASCII_SEPARATORS_RE = /[^a-z0-9]+/g;
// Letters and digits of other scripts survive (they are rare, but dropping them would make names vanish).
const UNICODE_SEPARATORS_RE = /[^\p{L}\p{N}]+/gu;

/**
 * Lowercase, ASCII-folded, punctuation-free, single-spaced form of a name. Apostrophes count as
 * punctuation, so "'s-Gravenhage" -> "s gravenhage" and "d'Ursel" -> "d ursel".
 */
export function normaliseText(input: string): string {
  let s = input.toLowerCase();
  // Most names are already plain words; testing for that is much cheaper than rewriting them.
  if (ALREADY_NORMAL_RE.test(s)) return s;
  if (NON_ASCII_RE.test(s)) {
    s = s.normalize('NFKD').replace(COMBINING_MARKS_RE, '').replace(SPECIAL_LETTERS_RE, replaceSpecial);
    // NFKD can emit ASCII capitals (e.g. from ligatures and enclosed letters).
    s = s.toLowerCase();
    if (NON_ASCII_RE.test(s)) return s.replace(UNICODE_SEPARATORS_RE, ' ').trim();
  }
  return s.replace(ASCII_SEPARATORS_RE, ' ').trim();
}

const VOWEL_RE = /[aeiouy]/;
// A lone "v" right before one of these is a roman numeral ("Martinus V-straat"), not "van".
const STREET_WORDS = new Set([...STREET_TYPES.values(), 'tuin', 'hof', 'pad', 'dreef', 'steeg', 'park']);

function expandGluedStreetType(token: string): string | undefined {
  for (const [abbr, full] of STREET_TYPE_SUFFIXES) {
    if (token.length - abbr.length < MIN_STEM || !token.endsWith(abbr)) continue;
    const stem = token.slice(0, token.length - abbr.length);
    if (!VOWEL_RE.test(stem)) return undefined;
    // "rijksstrwg" stays (straatweg would be a guess), but a two-letter ending of a real word does not
    // block: "lincolnstr" (-ln), "kolnstr".
    for (const [other] of STREET_TYPE_SUFFIXES) if (other.length >= 3 && stem.endsWith(other)) return undefined;
    return stem + full;
  }
  return undefined;
}

const DUTCH_TYPE_WORDS: readonly string[] = [...new Set(STREET_TYPES.values())];
function endsWithDutchType(tokens: readonly string[]): boolean {
  const last = tokens[tokens.length - 1] as string;
  return DUTCH_TYPE_WORDS.some((word) => last.endsWith(word));
}

function isFemaleRoyalName(token: string): boolean {
  for (const name of FEMALE_ROYAL_NAMES) if (token.startsWith(name)) return true;
  return false;
}

/**
 * Expands one token, or returns undefined to keep it. Decisions look only at the neighbours'
 * ORIGINAL tokens; every rule is written so that its own output never re-triggers a rule,
 * which is what makes normaliseStreet idempotent.
 */
function expandToken(tokens: readonly string[], i: number): string | undefined {
  const token = tokens[i] as string;
  const prev = i > 0 ? tokens[i - 1] : undefined;
  const next = tokens[i + 1];

  if (token.length === 1) {
    if (token !== 'v' || next === undefined) return undefined;
    // "v d x" / "v/d x": the pair is the particle "van der".
    if (next === 'd') return tokens[i + 2] !== undefined ? PAIR_VD : undefined;
    // Inside a run of initials ("c v ramanstraat", "v n laan") v is a letter, not "van".
    if (next.length === 1 || (prev !== undefined && (prev.length === 1 || prev === SINGLE_V))) return undefined;
    // "martinus v straat": a roman numeral in front of a street word.
    if (STREET_TYPES.has(next) || STREET_WORDS.has(next)) return undefined;
    return SINGLE_V;
  }

  if (next !== undefined) {
    if (prev === undefined) {
      // A Dutch name ending in its own type ("Ch de Bourbonweg") has no French type in front.
      const leading = LEADING_STREET_TYPES.get(token);
      if (leading !== undefined && !endsWithDutchType(tokens)) return leading;
    }
    const title = TITLES.get(token);
    if (title !== undefined) {
      if (prev !== undefined && TITLE_BLOCKED_AFTER.get(token)?.has(prev)) return undefined;
      return title;
    }
    const royal = ROYAL_TITLES.get(token);
    if (royal !== undefined) return isFemaleRoyalName(next) ? royal.female : royal.male;
    const particle = PARTICLES.get(token);
    if (particle !== undefined) return particle;
    const ordinal = ORDINALS.get(token);
    if (ordinal !== undefined) return ordinal;
  }

  if (prev !== undefined) {
    const type = STREET_TYPES.get(token);
    if (type !== undefined) return type;
  }
  return expandGluedStreetType(token);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WHOLE_TOKEN_ABBREVIATIONS = [
  'v',
  ...TITLES.keys(),
  ...ROYAL_TITLES.keys(),
  ...PARTICLES.keys(),
  ...ORDINALS.keys(),
];
// Cheap pre-filter: almost no name contains an abbreviation, and one regex scan is far cheaper
// than splitting and inspecting every token.
const MAY_EXPAND_RE = new RegExp(
  `(?:^| )(?:${WHOLE_TOKEN_ABBREVIATIONS.map(escapeRe).join('|')}) |(?:${[...STREET_TYPES.keys()].map(escapeRe).join('|')})(?: |$)` +
    (LEADING_STREET_TYPES.size ? `|^(?:${[...LEADING_STREET_TYPES.keys()].map(escapeRe).join('|')}) ` : ''),
);

const SPACE_RE = / /g;

/** The expanded tokens of a normalised text (tokens = text.split(' ')), or undefined when nothing expands. */
function expandTokens(tokens: readonly string[]): string[] | undefined {
  let out: string[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const expanded = expandToken(tokens, i);
    if (expanded === undefined) continue;
    out ??= tokens.slice();
    out[i] = expanded;
  }
  if (out === undefined) return undefined;
  // The "v d" pair expanded on "v" already covers the "d".
  for (let i = 0; i + 1 < out.length; i++) {
    if (out[i] === PAIR_VD && tokens[i] === 'v' && tokens[i + 1] === 'd') out[i + 1] = '';
  }
  return out;
}

/** normaliseText plus expansion of the abbreviations listed in streetAbbreviations.json. */
export function normaliseStreet(input: string): string {
  const text = normaliseText(input);
  if (!MAY_EXPAND_RE.test(text)) return text;
  const out = expandTokens(text.split(' '));
  return out === undefined ? text : out.filter((t) => t !== '').join(' ');
}

/** Every reading of a glued street type ("cuypln": -pln plein, or -ln after "cuyp"), the chosen one included. */
function gluedReadings(token: string): string[] {
  const readings: string[] = [];
  for (const [abbr, full] of STREET_TYPE_SUFFIXES) {
    if (token.length - abbr.length < MIN_STEM || !token.endsWith(abbr)) continue;
    const stem = token.slice(0, token.length - abbr.length);
    if (VOWEL_RE.test(stem)) readings.push(stem + full);
  }
  return readings;
}

/** The exact-match key of street tokens: spacing and punctuation never distinguish two streets. */
function keyOfTokens(tokens: readonly string[]): string {
  return tokens.join('').replace(SPACE_RE, '');
}

/** Exact-match keyword: spacing and punctuation never distinguish two streets. */
export function streetKey(input: string): string {
  const street = normaliseStreet(input);
  return street.includes(' ') ? street.replace(SPACE_RE, '') : street;
}

export interface StreetKeyReadings {
  /** streetKey() of the input: what the index stores for a street spelt this way. */
  key: string;
  /** Other readings of an ambiguous abbreviation, as keys, tried when `key` names no street; mostly []. */
  alternatives: string[];
}

/**
 * The street's key and the other plausible readings of an abbreviated name, from one normalisation: "vd"/"v.d."
 * read as "van de"/"van den" (alternativeReadings in the data file), a "v" inside initials read as "van"
 * ("J v Oldenbarneveltstraat", "V 't Hoffstr"), "Kon."/"Pr." with the other gender, a glued street type read
 * with another abbreviation it ends with ("Cuypln" as Cuyplaan, not Cuyplein). One change per reading.
 * Only the query side uses the alternatives: the index stores the primary key alone.
 */
export function streetKeyReadings(input: string): StreetKeyReadings {
  const text = normaliseText(input);
  if (!MAY_EXPAND_RE.test(text)) return { key: keyOfTokens([text]), alternatives: [] };
  const tokens = text.split(' ');
  const primary = expandTokens(tokens) ?? tokens.slice();
  const key = keyOfTokens(primary);
  const keys = new Set<string>();
  const withToken = (i: number, replacement: string) => {
    const variant = primary.slice();
    variant[i] = replacement;
    keys.add(keyOfTokens(variant));
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const reading = primary[i] as string;
    for (const other of ALTERNATIVE_READINGS.get(reading) ?? []) if (token !== reading) withToken(i, other);
    const next = tokens[i + 1];
    if (token === 'v' && reading === 'v' && next !== undefined) withToken(i, SINGLE_V);
    const royal = ROYAL_TITLES.get(token);
    if (royal && reading !== token) withToken(i, reading === royal.female ? royal.male : royal.female);
    for (const glued of gluedReadings(token)) if (glued !== reading) withToken(i, glued);
  }
  keys.delete(key);
  return { key, alternatives: [...keys] };
}

/**
 * Keywords for area-name filters: the full normalised name and every tail of its words, so a
 * prefix query on them matches a filter that is a prefix of the name or of any later word.
 */
export function nameTokens(input: string): string[] {
  return wordTails(normaliseText(input));
}

/** A normalised text and every tail of its words ("van der waalsweg", "der waalsweg", "waalsweg"). */
export function wordTails(text: string): string[] {
  if (text === '') return [];
  const result = [text];
  let from = text.indexOf(' ');
  while (from !== -1) {
    const tail = text.slice(from + 1);
    if (!result.includes(tail)) result.push(tail);
    from = text.indexOf(' ', from + 1);
  }
  return result;
}
