/**
 * What a typed text says besides the address itself, taken out once before any reading (the address reader,
 * freeText.ts, and the place reader, placeQueries.ts, read what is left; the search box, the type-ahead and every
 * dialect get the same). Pure; whether bracketed words name an area is the caller's test (the known cities).
 *
 * - A locality in brackets, as registers write it (`Rue de la Liberté(RUM)`, `Kerkstraat 1 (Delft)`): a known
 *   area's name becomes its own part (as after a comma), anything else is dropped.
 * - A country at the end, in any language people write it (`…, 1000 Bruxelles, Belgique`; core/text/countries.ts):
 *   dropped, and said.
 * - A mark that there is no number (`zn`, `z/n`, `sn`, `s/n`, a lone `-` or `/` after the street): dropped, and said,
 *   so the text is read as a street.
 */
import {
  COUNTRY_NAME_MAX_WORDS,
  type CountryCode,
  countryNamed,
  mayEndCountryName,
} from '../../../core/text/countries.js';

export interface TypedText {
  /** The text without the parts above; commas as typed (new ones where a bracket or a lone dash parted it). */
  text: string;
  /** The country named at the end, if one was. */
  country?: CountryCode | undefined;
  /** A no-number mark was typed: the text names a street, not an address. */
  noNumber: boolean;
}

/** `zn`, `z.n.`, `z/n` (zonder nummer), `sn`, `s.n.`, `s/n` (sans numéro, sin número). */
const NO_NUMBER_RE = /^(?:z|s)\.?\s?\/?\s?n\.?$/i;
const BRACKETS_RE = /\s*[([]([^)\]]*)[)\]]/g;
const LONE_MARK_RE = /^[-/–]$/;

/** The words of a text part, as the readers split them. */
const wordsOf = (part: string) => part.split(/\s+/).filter(Boolean);

/**
 * `keepBrackets`: for the place reader, whose names may hold them (`Bergen (L.)`, a municipality): only the country
 * and the no-number marks are taken out.
 */
export function readTypedText(
  raw: string,
  isArea: (words: readonly string[]) => boolean,
  { keepBrackets = false }: { keepBrackets?: boolean } = {},
): TypedText {
  const bracketsRead = keepBrackets
    ? raw
    : raw.replace(BRACKETS_RE, (_, inside: string) => {
        const words = wordsOf(inside.replace(/[,;]/g, ' '));
        return words.length > 0 && isArea(words) ? `, ${words.join(' ')},` : ' ';
      });
  let noNumber = false;
  // Word by word within its part: a no-number mark goes; a lone dash or slash after a word parts the text.
  const parts = bracketsRead.split(/([,;])/).map((part, i) => {
    if (i % 2 === 1) return part;
    const out: string[] = [];
    for (const word of wordsOf(part)) {
      // Not the letters of a Dutch postcode ("9715 SN Groningen").
      if (NO_NUMBER_RE.test(word) && out.length > 0 && !/^\d{4}$/.test(out[out.length - 1]!)) {
        noNumber = true;
        continue;
      }
      if (LONE_MARK_RE.test(word) && out.length > 0 && !/\d/.test(out[out.length - 1]!)) {
        noNumber = true;
        out.push(',');
        continue;
      }
      out.push(word);
    }
    return out.join(' ').replace(/ ,/g, ',');
  });
  let text = parts
    .map((part, i) => (i % 2 === 1 ? `${part} ` : part.trim()))
    .join('')
    .replace(/,(?=,)/g, ',');
  const country = trailingCountry(text);
  if (country) text = country.rest;
  text = text
    .replace(/(?:\s*[,;])+\s*$/, '')
    .replace(/^\s*[,;]+\s*/, '')
    .replace(/\s*([,;])(?:\s*[,;])+/g, '$1')
    .trim();
  return { text, country: country?.code, noNumber };
}

/**
 * A country named by the last words, and the text before them: a name in its own part (`…, Belgique`) or after
 * at least two other words (`Rue Neuve 16 1000 Bruxelles Belgique`); a two- or three-letter code only in its own part
 * (`…, NL`), since `be` or `nl` could end a name.
 */
function trailingCountry(text: string): { code: CountryCode; rest: string } | undefined {
  const trimmed = text.replace(/[\s,;.]+$/, '');
  const lastWord = /[^\s,;]+$/.exec(trimmed)?.[0];
  if (lastWord === undefined || !mayEndCountryName(lastWord)) return undefined;
  const tokens = [...trimmed.matchAll(/[^\s,;]+/g)];
  for (let k = Math.min(COUNTRY_NAME_MAX_WORDS, tokens.length - 1); k >= 1; k--) {
    const last = tokens.slice(-k);
    const name = last.map((t) => t[0]).join(' ');
    const code = countryNamed(name);
    if (!code) continue;
    const cut = last[0]!.index;
    const ownPart = /[,;]\s*$/.test(trimmed.slice(0, cut));
    const isCode = k === 1 && name.length <= 3;
    if (ownPart || (!isCode && tokens.length - k >= 2)) return { code, rest: trimmed.slice(0, cut) };
  }
  return undefined;
}
