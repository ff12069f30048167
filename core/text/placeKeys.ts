/**
 * The keys a place name is matched by: one function for the indexer (place documents' `name_keys` and
 * `qualifier_keys`) and the API (the words a person typed), so both sides normalise the same way.
 */
import { normalisePostcode } from './postcode.js';
import { normaliseStreet, normaliseText } from './normalise.js';

/** A postcode written with or without its space: Dutch 2628CD, a 4-digit area (Dutch 2628, Belgian 1050). */
const POSTCODE_KEY_RE = /^\d{4}(?:[a-z]{2})?$/;

/**
 * normaliseText of the name, normaliseStreet of it where abbreviations expand ("Prof. Krausstr" and "Professor
 * Krausstraat" meet), and the postcode key where the text is a postcode ("2628 cd" -> "2628cd"). Distinct, in
 * that order; [] for a text without a letter or digit.
 */
export function placeNameKeys(name: string): string[] {
  const text = normaliseText(name);
  if (text === '') return [];
  const keys = [text];
  const street = normaliseStreet(name);
  if (street !== text && street !== '') keys.push(street);
  const postcode = normalisePostcode(text);
  if (postcode !== text && POSTCODE_KEY_RE.test(postcode)) keys.push(postcode);
  return keys;
}

/** Whether a key is a postcode: matched exactly or by prefix, never through a typo (2629CD is another area). */
export function isPostcodeKey(key: string): boolean {
  return POSTCODE_KEY_RE.test(key);
}
