/**
 * How good an answer is, decided once: the `match` codes and the `confidence` of a forward answer, from what
 * the search tiers report (which tier and which reading of the street matched) and the query. Pure, so
 * every grade is unit-tested; free text, batch and any later entry point reuse it.
 */
import { editDistance } from '../../../core/text/editDistance.js';
import { sameBox } from '../../../core/text/houseNumber.js';
import type { ForwardHit } from './addressBodies.js';
import type { StreetQuery } from './streetRequest.js';

export type { ForwardHit };

/** What the search tiers know about the hit they settled on. */
export interface TierMatch {
  doc: ForwardHit;
  /** The exactly-named street (any reading of it), or a look-alike found by the fuzzy tier. */
  street: 'exact' | 'fuzzy';
  /** The number asked for, or the nearest existing number on that street. */
  number: 'exact' | 'nearest';
  /** For an exact street: the primary reading of the name, or another reading of an ambiguous abbreviation. */
  reading: 'primary' | 'alternative';
  /** An equally good answer exists in another city or street (no city, postcode or focus to choose). */
  ambiguous: boolean;
}

export interface MatchCodes {
  street: 'exact' | 'normalized' | 'fuzzy' | 'none';
  number: 'exact' | 'other_suffix' | 'nearest';
  postcode: 'exact' | 'ignored' | 'none';
  /**
   * The city: named and matched (`exact`; a structured `city` is a filter, so always this when given), read through a
   * typo (`fuzzy`), named beside words nothing placed (`partial`), named but unknown and ignored (`ignored`), or not
   * given (`none`). Free text only reads the last four.
   */
  city: FreeTextCity;
}

export type FreeTextCity = 'exact' | 'fuzzy' | 'partial' | 'ignored' | 'none';

export interface MatchGrade {
  confidence: number;
  match: MatchCodes;
}

/**
 * Free text: how the city words were read. A city read through a typo is a little less certain; words that
 * name no known city were ignored (not used as a filter), as an ignored postcode is; a city named beside words
 * nothing placed (`partial`: "bovenverdieping achter Groningen") lost those words.
 */
export const FREE_TEXT_CITY_FACTOR: Record<FreeTextCity, number> = {
  exact: 1,
  none: 1,
  fuzzy: 0.95,
  ignored: 0.9,
  partial: 0.9,
};

/** A grade with the free-text reading's own uncertainty folded in. */
export function gradeReading(grade: MatchGrade, city: FreeTextCity): MatchGrade {
  const factor = FREE_TEXT_CITY_FACTOR[city];
  const match = { ...grade.match, city };
  return { match, confidence: factor === 1 ? grade.confidence : Math.round(grade.confidence * factor * 1000) / 1000 };
}

const NORMALIZED_CONFIDENCE = 0.97;
/** The street matched under another reading of an ambiguous abbreviation ("Cuypln" as Cuyplaan). */
const ALTERNATIVE_READING_CONFIDENCE = 0.93;
const NUMBER_CONFIDENCE = { exact: 1, other_suffix: 0.9, nearest: 0.5 } as const;
const POSTCODE_IGNORED_FACTOR = 0.9;
const AMBIGUOUS_FACTOR = 0.7;

/**
 * What a fuzzy-tier answer stays below: a look-alike street with the number is at least one edit from what was
 * typed, 0.9 less 0.5 over the key's length (free text is at most 200 characters: at most 0.898 once rounded);
 * every other factor only lowers it, and the exact street's nearest number is 0.5.
 */
const FUZZY_TIER_CEILING = 0.9;

/**
 * An answer no fuzzy-tier answer can outrank (at FUZZY_TIER_CEILING or above: the exact street with another
 * suffix of the number, a range `8 - 10` answered by 8, is 0.9): once one reading of a free text has one, the fuzzy
 * tiers of the other readings could only add answers below it, so they are not sent.
 */
export function outranksFuzzyTier(grade: { confidence: number }): boolean {
  return grade.confidence >= FUZZY_TIER_CEILING;
}

/**
 * Confidence of a fuzzy street: just under 0.9 for a key one edit from a long query, less the larger the share of
 * letters that had to change (one typo in a 15-letter name: 0.87; two in 8 letters: 0.78), never below 0.6. A
 * fuzzy street counts at least one edit: the same key would have been the exact tier's answer.
 */
export function fuzzyStreetConfidence(queryKey: string, matchedKey: string): number {
  const distance = Math.max(1, editDistance(queryKey, matchedKey, 3));
  const length = Math.max(queryKey.length, matchedKey.length, 1);
  return Math.max(0.6, FUZZY_TIER_CEILING - (0.5 * distance) / length);
}

/**
 * Scores and labels how the answer relates to what was asked, so a client can set its own threshold:
 * street (exact or none 1, normalized 0.97 or 0.93 under an alternative reading of an abbreviation, fuzzy
 * 0.6-0.9 by edit distance) x number (exact 1, other suffix 0.9, nearest 0.5) x postcode (ignored 0.9) x
 * ambiguity (0.7 when the same street + number exists in another city and the query gave no city, postcode
 * or focus to choose).
 */
/** The street's name exactly as written, in any of its languages ("Rue Neuve" as well as "Nieuwstraat"). */
function isNameAsWritten(doc: ForwardHit, raw: string): boolean {
  return doc.streetname === raw || Object.values(doc.street_names ?? {}).includes(raw);
}

/** Of the street's keys in every language, the one a fuzzy query came closest to (a typo in the French name). */
function closestStreetKey(queryKey: string, doc: ForwardHit): string {
  let best = doc.street_key;
  let bestDistance = editDistance(queryKey, best, 3);
  for (const key of doc.other_street_keys ?? []) {
    const distance = editDistance(queryKey, key, 3);
    if (distance < bestDistance) [best, bestDistance] = [key, distance];
  }
  return best;
}

export function describeMatch(q: StreetQuery, tier: TierMatch): MatchGrade {
  const { doc } = tier;
  // "none": no street was asked (postcode + number), as `postcode: none` means no postcode was given.
  const street = !q.streetKey
    ? 'none'
    : tier.street === 'fuzzy'
      ? 'fuzzy'
      : tier.reading === 'primary' && isNameAsWritten(doc, q.streetRaw)
        ? 'exact'
        : 'normalized';
  const number =
    tier.number === 'nearest'
      ? 'nearest'
      : q.suffixKey !== undefined && !sameBox(q.suffixKey, doc.suffix_key)
        ? 'other_suffix'
        : 'exact';
  const postcode = !q.postcodeKey ? 'none' : doc.postcode_key === q.postcodeKey ? 'exact' : 'ignored';
  const streetConfidence =
    street === 'exact' || street === 'none'
      ? 1
      : street === 'fuzzy'
        ? fuzzyStreetConfidence(q.streetKey, closestStreetKey(q.streetKey, doc))
        : tier.reading === 'primary'
          ? NORMALIZED_CONFIDENCE
          : ALTERNATIVE_READING_CONFIDENCE;
  const confidence =
    streetConfidence *
    NUMBER_CONFIDENCE[number] *
    (postcode === 'ignored' ? POSTCODE_IGNORED_FACTOR : 1) *
    (tier.ambiguous ? AMBIGUOUS_FACTOR : 1);
  const city = q.cityKey ? 'exact' : 'none';
  return { confidence: Math.round(confidence * 1000) / 1000, match: { street, number, postcode, city } };
}
