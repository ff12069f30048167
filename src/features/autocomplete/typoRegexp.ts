/**
 * The regular expressions of the autocomplete's typo rounds: one edit per word (the first letter fixed), the last,
 * unfinished word as a prefix, within Elasticsearch's limit on an expression's length. Pure.
 */
import { FUZZY_MIN_LENGTH } from './autocompleteInput.js';

const ESCAPE_RE = /[.?+*|{}[\]()"\\#@&<>~]/g;
export const escapeRegexp = (s: string) => s.replace(ESCAPE_RE, '\\$&');

/**
 * One typo in any word from FUZZY_MIN_LENGTH letters on, the first letter fixed: whole words through `fuzzy`, the
 * unfinished last word through a regular expression of its one-edit variants followed by anything (Lucene has no
 * fuzzy prefix query; the expression compiles to one automaton over the term dictionary).
 */
export function fuzzyPrefixRegexp(word: string): string {
  return `${fuzzyWordRegexp(word)}.*`;
}

/** The one-edit variants of a whole word, the first letter fixed (the word itself among them). */
export function fuzzyWordRegexp(word: string): string {
  const variants = new Set<string>();
  const any = '[a-z0-9]';
  for (let i = 1; i <= word.length; i++) {
    const head = escapeRegexp(word.slice(0, i));
    if (i < word.length) {
      variants.add(`${head}${any}${escapeRegexp(word.slice(i + 1))}`); // a letter mistyped
      variants.add(`${head}${escapeRegexp(word.slice(i + 1))}`); // a letter too many
    }
    variants.add(`${head}${any}${escapeRegexp(word.slice(i))}`); // a letter left out
    if (i + 1 < word.length) {
      variants.add(escapeRegexp(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))); // two swapped
    }
  }
  return `(${[...variants].join('|')})`;
}

/** Elasticsearch's default `index.max_regex_length`: a longer expression is refused (found by the bench: 500s). */
export const MAX_REGEX_LENGTH = 1000;

/** Whether a typo round can help (a word long enough) and can be asked (its expression fits). */
export function mayBeTypo(words: readonly string[]): boolean {
  return words.some((w) => w.length >= FUZZY_MIN_LENGTH) && fuzzyPhraseRegexp(words) !== undefined;
}

/**
 * One typo per word from FUZZY_MIN_LENGTH letters on (first letter fixed), the words in the order typed: one
 * regular expression over the street_words tails (finished words whole, the last as a prefix).
 */
export function fuzzyPhraseRegexp(words: readonly string[]): string | undefined {
  const last = words.length - 1;
  const build = (typosBeforeLast: boolean) =>
    words
      .map((word, i) => {
        if (i === last) return word.length < FUZZY_MIN_LENGTH ? `${escapeRegexp(word)}.*` : fuzzyPrefixRegexp(word);
        const fuzzy = typosBeforeLast && word.length >= FUZZY_MIN_LENGTH;
        return fuzzy ? fuzzyWordRegexp(word) : escapeRegexp(word);
      })
      .join(' ');
  // The expression grows with the square of a word's length: long input keeps the typo in its last word only,
  // and input too long even for that gets no typo round (a refused expression would fail the request).
  for (const typosBeforeLast of [true, false]) {
    const regexp = build(typosBeforeLast);
    if (regexp.length <= MAX_REGEX_LENGTH) return regexp;
  }
  return undefined;
}
