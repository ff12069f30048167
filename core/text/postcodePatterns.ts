/**
 * Postcode shapes per country: the one home for them (free text, type-ahead, the structured parameter).
 * POSTCODE_PATTERNS reads postcodes out of free text; data, not code: a country is added by adding a row.
 * Patterns see one lower-cased token, or two adjacent tokens joined by a space.
 */
import type { CountryCode } from './countries.js';

export type { CountryCode };

export interface PostcodePattern {
  country: CountryCode;
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

/**
 * The start of a postcode typed so far, in normalised text (GET /autocomplete): four digits, Dutch letters
 * optionally begun ("2628", "2628 c", "2628cd"); a Belgian postcode is the four digits alone.
 */
export const POSTCODE_PREFIX_RE = /^([0-9]{4})(?: ?([a-z]{1,2}))?$/;

/** A whole Dutch postcode as a person writes it in the `postcode` parameter ("2628 CD", "2628cd"). */
export const DUTCH_POSTCODE_RE = /^\d{4}\s?[a-z]{2}$/i;

/** "NL-2628 CD", "B-1000", "BE 1000" after separators are dropped: the country prefix is noise before a postcode. */
export const COUNTRY_PREFIX_RE = /^(?:nl|be|b)(?=[0-9]{4}(?:[a-z]{2})?$)/;
