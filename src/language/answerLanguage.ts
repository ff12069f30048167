/**
 * Which language an answer shows its names in, decided once for every endpoint (pure, unit-tested): the
 * `lang` parameter, else the best supported language of `Accept-Language`, else the language the query matched
 * in, else none (each record's primary name). And the name a record shows in that language.
 */
import { LANGUAGES, type Language } from '../../core/text/languages.js';
import { normaliseText } from '../../core/text/normalise.js';

export type { Language };

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The supported language the client prefers most (`fr-BE,fr;q=0.9,nl;q=0.8` -> fr), by quality, then order;
 * region tags count as their language (`nl-BE` -> nl); `*` and unsupported languages choose nothing.
 */
export function preferredLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  let best: { language: Language; quality: number } | undefined;
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const language = range.trim().toLowerCase().split('-')[0] ?? '';
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (!isLanguage(language) || !(quality > 0)) continue;
    if (!best || quality > best.quality) best = { language, quality };
  }
  return best?.language;
}

export interface LanguageChoice {
  /** The `lang` parameter (already validated). */
  lang?: Language | undefined;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | undefined;
  /** The language the query's name matched in, when it matched a name in one language only. */
  matched?: Language | undefined;
}

/** `lang`, else Accept-Language, else the matched language; undefined: each record's primary name. */
export function answerLanguage(choice: LanguageChoice): Language | undefined {
  return choice.lang ?? preferredLanguage(choice.acceptLanguage) ?? choice.matched;
}

/** The name to show: the one in `language` when the record has it, else the primary name. */
export function localName(primary: string, names: Readonly<Record<string, string>> | undefined, language?: Language) {
  return (language && names?.[language]) || primary;
}

/**
 * The language whose name this query key is (normalised as the index normalises): "rue neuve" -> fr for
 * {"nl": "Nieuwstraat", "fr": "Rue Neuve"}; the first in LANGUAGES' order when several share the spelling
 * ("ixelles": fr and de). Undefined when every language spells it alike (Anderlecht) or none does (a typo): then
 * the query tells nothing.
 */
export function languageOfKey(
  key: string,
  names: Readonly<Record<string, string>> | undefined,
  keyOf: (name: string) => string = normaliseText,
): Language | undefined {
  if (!key || !names) return undefined;
  return languageWhere(names, (name) => keyOf(name) === key);
}

/**
 * The language whose name passes `test`: the first in LANGUAGES' order when several do; undefined when every
 * language's name does (they tell nothing apart) or none does. The one rule for every "which language was that".
 */
export function languageWhere(
  names: Readonly<Record<string, string>>,
  test: (name: string) => boolean,
): Language | undefined {
  const all = LANGUAGES.filter((language) => names[language]);
  const matching = all.filter((language) => test(names[language] as string));
  return matching.length > 0 && matching.length < all.length ? matching[0] : undefined;
}

/** Only the names worth showing: more than one distinct name, else undefined (the contract's field says it all). */
export function distinctNames(names: Readonly<Record<string, string>> | undefined) {
  if (!names) return undefined;
  return new Set(Object.values(names)).size > 1 ? { ...names } : undefined;
}
