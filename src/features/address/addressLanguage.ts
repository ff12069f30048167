/**
 * Addresses in the answer's language (pure): the street and city names shown, chosen by `lang`, Accept-Language
 * or the language the query named the street (else the city) in, and `names` where there is more than one.
 */
import { normaliseText, streetKey } from '../../../core/text/normalise.js';
import { answerLanguage, type Language, type LanguageChoice, languageOfKey } from '../../language/answerLanguage.js';
import { localise } from '../../language/localise.js';
import type { CityNames, KnownCities } from '../cities/knownCities.js';
import type { StreetQuery } from './streetRequest.js';

type Names = Readonly<Record<string, string>>;

/** What an address answer holds that has a language. */
export interface LocalisableAddress {
  streetname: string;
  city: string;
  street_names?: Record<string, string> | undefined;
}

/** The `names` an address answer carries: its street's and its city's, each where there is more than one. */
export interface AddressNames {
  streetname?: Record<string, string>;
  city?: Record<string, string>;
}

/** The language the query named this address in: its street's, else its city's; undefined when it tells none. */
export function queryLanguage(q: StreetQuery, doc: LocalisableAddress, cityNames: Names | undefined) {
  return languageOfKey(q.streetKey, doc.street_names, streetKey) ?? languageOfKey(q.cityKey ?? '', cityNames);
}

/** The address with `streetname` and `city` in `language` (where it has them) and its `names`. */
export function inLanguage<D extends LocalisableAddress>(
  doc: D,
  language: Language | undefined,
  cityNames: Names | undefined,
): D & { names?: AddressNames } {
  const { record, names } = localise(
    doc,
    [
      { field: 'streetname', names: doc.street_names },
      { field: 'city', names: cityNames },
    ],
    language,
  );
  return Object.keys(names).length ? { ...record, names } : record;
}

/** The names of an address's city, by its shown (primary) name: the known cities named in several languages. */
export const cityNamesOf = (cities: CityNames, city: string) => cities.get(normaliseText(city));

/** Each answer's address in the language the request chose (or the one its query matched in). */
export function addressLocaliser(q: StreetQuery, choice: Omit<LanguageChoice, 'matched'>, cities: KnownCities) {
  return <D extends LocalisableAddress>(doc: D) => {
    const cityNames = cityNamesOf(cities.names, doc.city);
    const matched = queryLanguage(q, doc, cityNames);
    return inLanguage(doc, answerLanguage({ ...choice, matched }), cityNames);
  };
}

/**
 * Addresses asked for without a name (by id, of a building, near a point): in the language `lang` or
 * Accept-Language chose, else their primary names; `names` where there are several.
 */
export function addressesInLanguage(language: Language | undefined, cities: CityNames) {
  return <D extends LocalisableAddress>(doc: D) => inLanguage(doc, language, cityNamesOf(cities, doc.city));
}
