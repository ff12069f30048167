const SEPARATORS_RE = /[\s\-.]+/g;
// "NL-2628 CD", "B-1000", "BE 1000": a country prefix is noise in front of a valid postcode.
const COUNTRY_PREFIX_RE = /^(?:nl|be|b)(?=[0-9]{4}(?:[a-z]{2})?$)/;
const DUTCH_POSTCODE_RE = /^\d{4}\s?[a-z]{2}$/i;

/** "2628 CD" / "2628cd" / " 2628-CD " -> "2628cd"; Belgian "1000" -> "1000"; "" -> "". */
export function normalisePostcode(input: string): string {
  return input.toLowerCase().replace(SEPARATORS_RE, '').replace(COUNTRY_PREFIX_RE, '');
}

export function looksLikeDutchPostcode(input: string): boolean {
  return DUTCH_POSTCODE_RE.test(input.trim());
}
