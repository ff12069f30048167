import { COUNTRY_PREFIX_RE, DUTCH_POSTCODE_RE } from './postcodePatterns.js';

const SEPARATORS_RE = /[\s\-.]+/g;

/** "2628 CD" / "2628cd" / " 2628-CD " -> "2628cd"; Belgian "1000" -> "1000"; "" -> "". */
export function normalisePostcode(input: string): string {
  return input.toLowerCase().replace(SEPARATORS_RE, '').replace(COUNTRY_PREFIX_RE, '');
}

export function looksLikeDutchPostcode(input: string): boolean {
  return DUTCH_POSTCODE_RE.test(input.trim());
}
