/**
 * Suggestions in the answer's language (pure): a street named in several languages shows the name `lang` or
 * Accept-Language asks for, else the one whose words start as typed (`rue n` -> Rue Neuve), else the one the
 * typo round matched (`rue nauve` -> Rue Neuve), else its primary name; its city (and the label) follows, in the
 * same language where the city has names in several.
 */
import { normaliseStreet, normaliseText, wordTails } from '../../../core/text/normalise.js';
import { answerLanguage, type Language, type LanguageChoice, languageWhere } from '../../language/answerLanguage.js';
import { languageTyped } from '../places/placeLanguage.js';
import { type AddressNames, cityNamesOf, inLanguage } from '../address/addressLanguage.js';
import type { CityNames } from '../cities/knownCities.js';
import { fuzzyPhraseRegexp, mayBeTypo } from './typoRegexp.js';
import type { Suggestion } from './autocompleteRepository.js';

/**
 * The language whose name the typed words reach with the typo round's rule (fuzzyPhraseRegexp over the name's word
 * tails, as the streets index holds them): a French name typed with a typo is answered in French.
 */
export function languageTypedWithTypo(typed: string, names: Readonly<Record<string, string>>): Language | undefined {
  const typo = typoExpression(typed);
  if (!typo) return undefined;
  return languageWhere(names, (name) => wordTails(normaliseStreet(name)).some((tail) => typo.test(tail)));
}

/**
 * The last text's typo expression: every suggestion of one answer asks with the same text, and building the
 * expression (an alternation of every one-typo spelling, compiled by V8) for each of them was 3.5 % of a keystroke's
 * API CPU. The same value as building it anew (a RegExp without the `g` flag keeps no state between tests).
 */
let lastTypo: { typed: string; expression: RegExp | undefined } | undefined;

function typoExpression(typed: string): RegExp | undefined {
  if (lastTypo?.typed !== typed) {
    const words = normaliseText(typed).split(' ').filter(Boolean);
    const expression = words.length > 0 && mayBeTypo(words) ? new RegExp(`^${fuzzyPhraseRegexp(words)}$`) : undefined;
    lastTypo = { typed, expression };
  }
  return lastTypo.expression;
}

export type LocalisedSuggestion = Omit<Suggestion, 'street_names'> & { names?: AddressNames };

/** No city named in several languages (a one-language answer reads none): one table, not a new one per suggestion. */
const NO_CITIES: CityNames = new Map();

/**
 * The suggestion with `streetname`, `city` and its label in the chosen language, and `names` where there are
 * several. `cities`: the known cities named in several languages.
 */
export function suggestionInLanguage(
  suggestion: Suggestion,
  typed: string,
  choice: Omit<LanguageChoice, 'matched'>,
  cities: CityNames = NO_CITIES,
): LocalisedSuggestion {
  const streetNames = suggestion.street_names;
  // Most suggestions (all of the Netherlands) have one name and a city of one: nothing to choose, nothing copied.
  const cityNames = suggestion.city && cities.size > 0 ? cityNamesOf(cities, suggestion.city) : undefined;
  if (!streetNames && !cityNames) return suggestion;
  const matched = streetNames && (languageTyped(typed, streetNames) ?? languageTypedWithTypo(typed, streetNames));
  const { street_names: _, ...shown } = inLanguage(suggestion, answerLanguage({ ...choice, matched }), cityNames);
  return shown;
}
