/**
 * The one localisation step every answer goes through (pure): a record's named fields (a street's name, a city's, an
 * area's) shown in the answer's language where the record has a name in it, else their primary value; a label that
 * begins or ends with such a value says the shown one; and, per field, the names worth showing (more than one
 * distinct). Which language is answerLanguage()'s decision; which fields a kind has is its caller's.
 */
import { distinctNames, type Language, localName } from './answerLanguage.js';

type Names = Readonly<Record<string, string>>;

/** A field of the record that has names per language, and those names (undefined: it has one name). */
export interface NamedField<K extends string> {
  field: K;
  names: Names | undefined;
}

export interface Localised<R> {
  record: R;
  /** Per field, its names where there are several distinct ones; empty when no field has. */
  names: { [field: string]: Record<string, string> };
}

export function localise<K extends string, R extends Record<K, string> & { label?: string }>(
  record: R,
  fields: readonly NamedField<K>[],
  language: Language | undefined,
): Localised<R> {
  const shown: R = { ...record };
  const names: Localised<R>['names'] = {};
  for (const { field, names: fieldNames } of fields) {
    const primary = record[field];
    const value = localName(primary, fieldNames, language);
    (shown as Record<K, string>)[field] = value;
    if (typeof shown.label === 'string') shown.label = relabel(shown.label, primary, value);
    const several = distinctNames(fieldNames);
    if (several) names[field] = several;
  }
  return { record: shown, names };
}

/** The label with `from` replaced by `to` where the label begins with it, else where it ends with it. */
export function relabel(label: string, from: string, to: string): string {
  if (!from || from === to) return label;
  if (label.startsWith(from)) return to + label.slice(from.length);
  if (label.endsWith(from)) return label.slice(0, label.length - from.length) + to;
  return label;
}
