/**
 * Postcode shapes per country, for reading postcodes out of free text. Data, not code: a country is added by
 * adding a row. Patterns see one lower-cased token, or two adjacent tokens joined by a space.
 */
export interface PostcodePattern {
  country: 'NL' | 'BE';
  /** Matches the whole candidate (one token, or two tokens "2628 cd"). */
  pattern: RegExp;
  /** A pattern that could also be a house number ("1000"): only taken when another number is present. */
  lookslikeNumber: boolean;
}

export const POSTCODE_PATTERNS: readonly PostcodePattern[] = [
  // Dutch: four digits (no leading zero) and two letters, glued or apart; "nl-" prefixes are noise.
  { country: 'NL', pattern: /^(?:nl-?)?[1-9]\d{3} ?[a-z]{2}$/, lookslikeNumber: false },
  // Belgian: four digits 1000-9999, optionally "b-" / "be-" prefixed.
  { country: 'BE', pattern: /^(?:be?-)[1-9]\d{3}$/, lookslikeNumber: false },
  { country: 'BE', pattern: /^[1-9]\d{3}$/, lookslikeNumber: true },
];

export type CountryCode = PostcodePattern['country'];
export const COUNTRY_CODES: readonly CountryCode[] = ['NL', 'BE'];
