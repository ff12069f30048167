/**
 * The countries the service holds addresses of, with every name people write for them: the one table the readers
 * of typed text (an envelope's last line, `Belgique`), the dialects' country parameters (Nominatim's `country=`,
 * `countrycodes=`, Pelias' `boundary.country`), the dialects' answers (`Netherlands`, `NLD`), the request schemas'
 * `country` and the postcode shapes share; CountryCode is derived from it. Data, not code: a country is one row.
 */
import { normaliseText } from './normalise.js';

export interface CountryEntry<Code extends string = string> {
  /** ISO 3166-1 alpha-2. */
  code: Code;
  /** ISO 3166-1 alpha-3. */
  code3: string;
  /** Its name as the areas index holds it (Natural Earth's English name), which the dialects answer. */
  areaName: string;
  /** Its names in the languages people address letters in (normalised on use): the country's own and its neighbours'. */
  names: readonly string[];
}

const TABLE = [
  {
    code: 'NL',
    code3: 'NLD',
    areaName: 'Netherlands',
    names: [
      'Nederland',
      'The Netherlands',
      'Netherlands',
      'Pays-Bas',
      'Niederlande',
      'Koninkrijk der Nederlanden',
      'Paesi Bassi',
      'Países Bajos',
    ],
  },
  {
    code: 'BE',
    code3: 'BEL',
    areaName: 'Belgium',
    names: [
      'België',
      'Belgique',
      'Belgien',
      'Belgium',
      'Koninkrijk België',
      'Royaume de Belgique',
      'Belgio',
      'Bélgica',
    ],
  },
] as const satisfies readonly CountryEntry[];

/** ISO 3166-1 alpha-2 of a country the service holds addresses of: `NL`, `BE`. */
export type CountryCode = (typeof TABLE)[number]['code'];

export const COUNTRIES: readonly CountryEntry<CountryCode>[] = TABLE;

/** The codes, in the table's order. */
export const COUNTRY_CODES: readonly CountryCode[] = COUNTRIES.map((c) => c.code);

/** The country of an alpha-2 code (any case), or undefined. */
export function countryOfCode(code: string): CountryEntry<CountryCode> | undefined {
  const upper = code.toUpperCase();
  return COUNTRIES.find((c) => c.code === upper);
}

/** The code of a country by the name the areas index gives it (`Netherlands`, any case); else undefined. */
export function countryOfAreaName(name: string): CountryEntry<CountryCode> | undefined {
  const lower = name.toLowerCase();
  return COUNTRIES.find((c) => c.areaName.toLowerCase() === lower);
}

/** Every name and code of a country, normalised ("belgie", "pays bas", "nl", "nld"), to its code. */
const BY_NAME: ReadonlyMap<string, CountryCode> = new Map(
  COUNTRIES.flatMap((c) => [
    ...c.names.map((n) => [normaliseText(n), c.code] as const),
    [c.code.toLowerCase(), c.code] as const,
    [c.code3.toLowerCase(), c.code] as const,
  ]),
);

/** Most words in one country name ("koninkrijk der nederlanden"). */
export const COUNTRY_NAME_MAX_WORDS = Math.max(...[...BY_NAME.keys()].map((k) => k.split(' ').length));

/** The country a name or code written in any of the listed languages names (`Belgique`, `nl`, `NLD`); else undefined. */
export function countryNamed(text: string): CountryCode | undefined {
  return BY_NAME.get(normaliseText(text));
}

/** The last word of every name and code ("belgique", "bas", "nl"): a cheap first test of a text's last word. */
const LAST_WORDS: ReadonlySet<string> = new Set([...BY_NAME.keys()].map((k) => k.slice(k.lastIndexOf(' ') + 1)));

/** Whether a word typed last ("Belgique", "Pays-Bas", "NL") may end a country's name or be its code. */
export function mayEndCountryName(word: string): boolean {
  const key = normaliseText(word);
  return LAST_WORDS.has(key.slice(key.lastIndexOf(' ') + 1));
}
