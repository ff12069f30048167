/**
 * The shared rules of reading an address typed by a person: which words after a house number belong to it,
 * the Belgian box words, and how many typos a word of a given length may carry. One home, so free text
 * (src/features/search), type-ahead (src/features/autocomplete), the structured forward lookup
 * (src/features/address) and the indexer read text by the same rules. Postcode shapes per country live beside
 * this file, in postcodePatterns.ts.
 */

/** Named additions both readers take as part of the number ("12 bis", "3 hs", "5 huis", "7 bg"). */
const ADDITION_WORDS = ['bis', 'ter', 'hs', 'huis', 'bg'] as const;

/**
 * Belgian box words ("Wetstraat 16 bus 3", "bte 2", "bt 3", "boîte 4", "b 5"): the word that introduces a box
 * number; free text also takes them with a dot ("bte. 2", "bt. 3": numberTail.ts). Both spellings of boîte,
 * because normalised text has lost its accents. `bt` is what French writers shorten boîte to most (and the
 * register's `BT01` prefix): without it, 61 of 63 `bt` queries of a French box set answered the building only.
 */
export const BOX_WORDS = ['bus', 'bte', 'bt', 'boîte', 'boite', 'b'] as const;

/** A word (lower case) that introduces a box: "bus", "bte", "boîte", "b". */
export function isBoxWord(word: string): boolean {
  return (BOX_WORDS as readonly string[]).includes(word);
}

/** A box with a digit (`3`, `0003`, `b003`, `et02`, `2e`) or the ground floor `rc`, after any box word. */
const DIGIT_BOX_RE = /^(?=[a-z]*\d)[a-z0-9]{1,6}$|^rc$/;
/**
 * A box of letters only: the register's letter boxes and floor codes (`A`, `RDC`, `ETRC`, `SS`, `RCBV`: 7 % of
 * the Brussels boxes). Read as a box only after a spelled-out box word, whose meaning is unambiguous.
 */
const LETTER_BOX_RE = /^[a-z]{1,6}$/;

/**
 * What may follow a box word (lower case) as the box. After `bus`, `bte`, `boîte`: any short code (`3`, `b003`,
 * `et02`, `A`, `rdc`, `etrc`). After `b`: a code with a digit, or `rc` (`8 b a` is more likely letter b and
 * something else). A longer word is more likely the postcode's city ("bus Brussel" is no box); the free-text
 * reader also checks that no known city starts with a box of letters.
 */
export function isBoxValue(boxWord: string, value: string): boolean {
  if (DIGIT_BOX_RE.test(value)) return true;
  return boxWord !== 'b' && isBoxWord(boxWord) && LETTER_BOX_RE.test(value);
}

/**
 * A word after the number that belongs to it in complete free text ("8 a", "139 A-1", "1 II", "12 bis", "3 hs",
 * Lelystad's and Almere's numeric additions "Kogge 3 2", "Markerkant 13 120"); anything longer is more likely
 * the city ("1 Den Haag"). The free-text reader also checks that no known city starts with the word.
 *
 * Differs in intent from TYPED_SUFFIX_WORD_RE: the text is finished, so the word shapes are strict (a letter
 * with at most a short number, Roman floor numerals, the Dutch floor words), which keeps a short city name
 * out of the suffix.
 */
export const SUFFIX_WORD_RE = new RegExp(
  `^(?:\\d{1,4}|[a-z](?:[-/.]?\\d{1,4})?|i{1,3}|iv|vi{0,3}|ix|x|${[...ADDITION_WORDS, 'quater', 'boven', 'beneden'].join('|')})$`,
);

/**
 * A word after the number that belongs to it in text still being typed (GET /autocomplete): digits, one or two
 * letters (an unfinished addition), the addition words, the box words (`bus`, `bte`, `boite`: normalised text has
 * lost the accent of boîte), and any word with a digit in it
 * (Belgian box numbers such as `B087`, `2E`, `4B12`: a city name has no digits). Looser than SUFFIX_WORD_RE
 * because an unfinished word cannot be checked against the city names yet; longer words are the city.
 */
export const TYPED_SUFFIX_WORD_RE = new RegExp(
  `^(?:[0-9]+|[a-z]{1,2}|${[...ADDITION_WORDS, 'bus', 'bte', 'boite'].join('|')}|[a-z]*[0-9][a-z0-9]*)$`,
);

/**
 * Edits tolerated in a name (a normalised street key, a city name) of this length: none up to 3 letters (a
 * short name with a typo is another name), 1 up to 7, 2 from 8 (Elasticsearch's maximum). The length is that
 * of what was typed, which a deletion typo has already shortened: 8 lets two typos in a 10-letter name through
 * even when both are deletions.
 */
export function typoTolerance(length: number): 0 | 1 | 2 {
  return length <= 3 ? 0 : length <= 7 ? 1 : 2;
}
