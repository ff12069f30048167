/**
 * Areas in the answer's language (pure): `name` in the language `lang` or Accept-Language asks for, else the one
 * the `name` filter was written in (`?name=Ixelles` -> Ixelles), else the primary name; `names` where several.
 */
import type { AreaDoc } from '../../../core/elasticsearch/documents.js';
import { normaliseText } from '../../../core/text/normalise.js';
import { answerLanguage, type Language, type LanguageChoice, languageOfKey } from '../../language/answerLanguage.js';
import { localise } from '../../language/localise.js';

export function areaLocaliser(choice: Omit<LanguageChoice, 'matched'>, nameFilter: string | undefined) {
  const filterKey = nameFilter ? normaliseText(nameFilter) : '';
  return <D extends Pick<AreaDoc, 'name' | 'names'>>(doc: D): D => {
    if (!doc.names) return doc;
    return areaInLanguage(doc, answerLanguage({ ...choice, matched: languageOfKey(filterKey, doc.names) }));
  };
}

/** The area with `name` in `language` (where it has one) and `names` where there are several. */
export function areaInLanguage<D extends Pick<AreaDoc, 'name' | 'names'>>(doc: D, language: Language | undefined): D {
  if (!doc.names) return doc;
  const { record, names } = localise(doc, [{ field: 'name', names: doc.names }], language);
  return { ...record, names: names.name };
}
