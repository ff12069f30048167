/**
 * The dialects' structured search forms (Nominatim's `street`/`city`/`postalcode`, Pelias' `address`/`locality`/
 * `postalcode`, Photon's `street`/`housenumber`/`postcode`/`city`) as the one text the search box reads: a
 * structured form is a translation over the same reading (src/features/search/freeText.ts), which takes the number
 * first or last in the street part ("47 Boulevard du Régent" as well as "Boulevard du Régent 47"). Pure.
 */
import { z } from 'zod';
import { type CountryCode, countryNamed } from '../../../core/text/countries.js';
import { text } from './params.js';

/** The parts a structured form can name, in our words. */
export interface StructuredAddress {
  /** A point of interest's name (Nominatim's `amenity`). */
  name?: string | undefined;
  /** The street, with or without its house number. */
  street?: string | undefined;
  /** The house number given apart (Photon's `housenumber`). */
  houseNumber?: string | undefined;
  postcode?: string | undefined;
  city?: string | undefined;
  /** Coarser areas: used only when nothing finer is given (the reader has no part for them). */
  county?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
}

/**
 * "Mekelweg 8, 2628CD Delft": the street and its number, then postcode and city. County and state only when nothing
 * else narrows; the country goes to the country filter (structuredCountry), not into the text.
 */
export function structuredText(a: StructuredAddress): string {
  const street = [a.street, a.houseNumber].filter(Boolean).join(' ');
  const place = [a.postcode, a.city].filter(Boolean).join(' ');
  const parts = [a.name, street, place].filter(Boolean);
  if (parts.length === 0) parts.push(...[a.county, a.state].filter((p): p is string => Boolean(p)));
  if (parts.length === 0 && a.country) parts.push(a.country);
  return parts.join(', ');
}

/**
 * The country a structured form's `country` names, in any language or as a code (core/text/countries.ts); `other`
 * for a country the service holds no addresses of, undefined when none is given.
 */
export function structuredCountry(country: string | undefined): CountryCode | 'other' | undefined {
  if (!country?.trim()) return undefined;
  return countryNamed(country) ?? 'other';
}

/** A structured form's parameters, each an optional text, as one zod shape. */
export function structuredParameters<K extends string>(keys: readonly K[]) {
  return Object.fromEntries(keys.map((k) => [k, text(200).optional()])) as Record<
    K,
    z.ZodOptional<ReturnType<typeof text>>
  >;
}

/** The refinement every structured form has: at least one of its parts given. */
export function atLeastOneOf<K extends string>(
  keys: readonly K[],
): [(q: Partial<Record<K, unknown>>) => boolean, { message: string; path: PropertyKey[] }] {
  return [
    (q) => keys.some((k) => Boolean(q[k])),
    { message: `give at least one of ${keys.join(', ')}`, path: [keys[0]!] },
  ];
}
