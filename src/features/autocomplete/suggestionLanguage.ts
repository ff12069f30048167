/**
 * Suggestions in the answer's language (pure): a street named in several languages shows the name `lang` or
 * Accept-Language asks for, else the one whose words start as typed (`rue n` -> Rue Neuve), else its primary name.
 */
import { normaliseText } from '../../../core/text/normalise.js';
import {
  answerLanguage,
  distinctNames,
  type Language,
  type LanguageChoice,
  LANGUAGES,
  localName,
} from '../../language/answerLanguage.js';
import type { Suggestion } from './autocompleteRepository.js';

/** The language whose name has a word starting with the typed text (as languageOfKey: the first of several, none
 * when all or none do). */
export function languageTyped(typed: string, names: Readonly<Record<string, string>>): Language | undefined {
  const text = normaliseText(typed);
  if (!text) return undefined;
  const matching = LANGUAGES.filter((language) => {
    const key = names[language] ? normaliseText(names[language]) : '';
    return key.startsWith(text) || key.includes(` ${text}`);
  });
  const all = LANGUAGES.filter((language) => names[language]);
  return matching.length > 0 && matching.length < all.length ? matching[0] : undefined;
}

export type LocalisedSuggestion = Omit<Suggestion, 'street_names'> & { names?: { streetname: Record<string, string> } };

/** The suggestion with `streetname` and its label in the chosen language, and `names` where there are several. */
export function suggestionInLanguage(
  suggestion: Suggestion,
  typed: string,
  choice: Omit<LanguageChoice, 'matched'>,
): LocalisedSuggestion {
  const { street_names: names, ...rest } = suggestion;
  if (!names) return rest;
  const language = answerLanguage({ ...choice, matched: languageTyped(typed, names) });
  const shown = localName(rest.streetname, names, language);
  const label = rest.label.startsWith(rest.streetname) ? shown + rest.label.slice(rest.streetname.length) : rest.label;
  const several = distinctNames(names);
  return { ...rest, streetname: shown, label, ...(several ? { names: { streetname: several } } : {}) };
}
