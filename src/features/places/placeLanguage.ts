/**
 * Places (areas and streets of the search box and autocomplete) in the answer's language (pure): named in the
 * language `lang` or Accept-Language asks for, else the one the text was written in, else their primary name; the
 * label begins with that name, and a street's `streetname` is it.
 */
import { normaliseText } from '../../../core/text/normalise.js';
import {
  answerLanguage,
  distinctNames,
  type Language,
  type LanguageChoice,
  languageWhere,
} from '../../language/answerLanguage.js';
import { localise, type NamedField } from '../../language/localise.js';
import type { PlaceResult } from './placeRecords.js';

/** The language whose name has a word starting with the typed text (as languageOfKey: the first of several, none
 * when all or none do). */
export function languageTyped(typed: string, names: Readonly<Record<string, string>>): Language | undefined {
  const text = normaliseText(typed);
  if (!text) return undefined;
  return languageWhere(names, (name) => {
    const key = normaliseText(name);
    return key.startsWith(text) || key.includes(` ${text}`);
  });
}

/** The language whose whole name the text holds as words (`rue neuve bruxelles` -> fr for Rue Neuve). */
export function languageWritten(text: string, names: Readonly<Record<string, string>>): Language | undefined {
  const words = ` ${normaliseText(text)} `;
  return languageWhere(names, (name) => {
    const key = normaliseText(name);
    return key !== '' && words.includes(` ${key} `);
  });
}

/**
 * The place named in the chosen language, else the one typed (`bruxel` -> Bruxelles, `rue neuve bruxelles` -> Rue
 * Neuve), else its primary name; its label begins with that name.
 */
export function placeInLanguage(place: PlaceResult, typed: string, choice: Omit<LanguageChoice, 'matched'>) {
  const names = distinctNames(definedNames(place.names));
  if (!names) return place;
  const matched = languageTyped(typed, names) ?? languageWritten(typed, names);
  const language = answerLanguage({ ...choice, matched });
  const streetnameToo = place.type === 'street' && place.streetname === place.name;
  const fields: NamedField<'name' | 'streetname'>[] = [{ field: 'name', names }];
  if (streetnameToo) fields.push({ field: 'streetname', names });
  return localise(place, fields, language).record;
}

const definedNames = (names: Readonly<Partial<Record<string, string>>>) =>
  Object.fromEntries(Object.entries(names).filter((e): e is [string, string] => typeof e[1] === 'string'));
