/**
 * The forms people type one address in (issue 49: "What people type, through every door"), one list for every
 * evaluation that asks them: the search box's (bench/quality/eval/entry/forms.ts), the type-ahead's
 * (formsAutocomplete.ts). Pure: an address and a seeded Rng in, each form's text out, with the text cut right behind
 * the house number (what a type-ahead has seen a keystroke before the rest) and what the text names (so the answer
 * must match it).
 *
 *   street number city              Mekelweg 8 Delft
 *   postcode number                 9411 xj 3, 4353al 4 (Dutch postcodes only: a Belgian one and a number are two
 *                                   numbers), lower case, the postcode glued or spaced
 *   city, street number             Uithuizen, Departementsstraat 73
 *   street number, postcode city    Contrabasweg 132, 1312 WR Almere
 *   french city                     Rue des Harengs 18, 1000 Bruxelles (Brussels: the French street and city)
 *   dutch street, french city       Haringstraat 18, 1000 Bruxelles (Brussels, where the city's names differ)
 *   number first                    40 Avenue De Fré, 1180 Uccle
 *   envelope with country           Contrabasweg 132, 1312 WR Almere, Nederland (Belgique, België, Belgium)
 *   abbreviated street type         Av. Franz Guillaume 31, 1140 Evere; Departementsstr. 73, 9981 CE Uithuizen (only
 *                                   for a street with an abbreviable word)
 *   range                           Contrabasweg 132-134, 1312 WR Almere; … 132/134 … (no suffix; the caller drops it
 *                                   where the register holds the second number as the first's addition)
 *   locality in brackets            Contrabasweg 132 (QZV), 1312 WR Almere (a made-up three-letter code)
 *   no-number marker                Contrabasweg zn, 1312 WR Almere (s/n, z/n, -): the street, no address
 *
 * In Brussels each form other than the two French-city ones names the street and city in French or in Dutch (seeded;
 * French only where the street has a French name); the abbreviated form in the language whose name has an
 * abbreviable word.
 */
import type { Rng } from './rng.js';

export const ADDRESS_FORMS = [
  'street number city',
  'postcode number',
  'city, street number',
  'street number, postcode city',
  'french city',
  'dutch street, french city',
  'number first',
  'envelope with country',
  'abbreviated street type',
  'range',
  'locality in brackets',
  'no-number marker',
] as const;
export type AddressForm = (typeof ADDRESS_FORMS)[number];

export interface FormAddress {
  /** The register's street name (Dutch in Brussels). */
  streetname: string;
  /** The house number's digits, as displayed. */
  number: string;
  /** The displayed suffix ("A", "-1", "A-2"; "" when none). */
  suffix: string;
  /** As stored: "2628CD", "1000". */
  postcode: string;
  /** The register's city (Dutch in Brussels). */
  city: string;
  /** Brussels: the street's French name, where the register has one. */
  streetFr?: string | undefined;
  /** Brussels: the city's French name, where it has one (the same as `city` for Evere). */
  cityFr?: string | undefined;
}

export interface FormText {
  form: AddressForm;
  text: string;
  /** The text cut right behind the house number: "Contrabasweg 132", "40 Avenue De Fré", "9411 xj 3". */
  cut: string;
  /** What the text names: the answer must be of that street, postcode, city. */
  gives: { street: boolean; postcode: boolean; city: boolean };
  /** The answer the text asks for: the address, or (no-number marker) the street. */
  wants: 'address' | 'street';
  /** The language the street and city are written in. */
  language: 'nl' | 'fr';
  /** What the form varied: the abbreviation ("Avenue → Av."), the range's separator, the no-number marker. */
  detail?: string;
  /** Range: the second number, which the register must not hold as the first's addition. */
  rangeTo?: number;
}

const ALL = { street: true, postcode: true, city: true } as const;
const NO_POSTCODE = { street: true, postcode: false, city: true } as const;

const DUTCH_POSTCODE = /^(\d{4})\s*([A-Za-z]{2})$/;
export const isDutchPostcode = (postcode: string) => DUTCH_POSTCODE.test(postcode.trim());
/** "1312WR" -> "1312 WR"; a Belgian postcode as it is. */
export function spacedPostcode(postcode: string): string {
  const m = DUTCH_POSTCODE.exec(postcode.trim());
  return m ? `${m[1]} ${m[2]!.toUpperCase()}` : postcode;
}

interface Abbreviation {
  pattern: RegExp;
  /** What replaces the match ($1 keeps a captured stem). */
  replacements: string[];
  label: string;
}

/**
 * The street-type and title abbreviations the issue lists, where people write them: a leading French type word
 * (Av., Bd, Chée, Pl., Sq.), a leading Dutch one (Stwg., Ln), `-steenweg` and `-straat` closing a word, Burgemeester
 * anywhere, and Saint-/Sainte-/Sint- in a hyphenated name.
 */
const ABBREVIATIONS: Abbreviation[] = [
  { pattern: /^Avenue(?= )/u, replacements: ['Av.', 'Av'], label: 'Avenue' },
  { pattern: /^Boulevard(?= )/u, replacements: ['Bd', 'Bld'], label: 'Boulevard' },
  { pattern: /^Chaussée(?= )/u, replacements: ['Chée', 'Ch.'], label: 'Chaussée' },
  { pattern: /^Place(?= )/u, replacements: ['Pl.'], label: 'Place' },
  { pattern: /^Square(?= )/u, replacements: ['Sq.'], label: 'Square' },
  { pattern: /^Steenweg(?= )/u, replacements: ['Stwg.'], label: 'Steenweg' },
  { pattern: /^Laan(?= )/u, replacements: ['Ln'], label: 'Laan' },
  { pattern: /(\p{L})steenweg(?=$| )/u, replacements: ['$1stwg.'], label: '-steenweg' },
  { pattern: /(\p{L})straat(?=$| )/u, replacements: ['$1str.'], label: '-straat' },
  { pattern: /(?<!\p{L})Burgemeester(?= )/u, replacements: ['Burg.'], label: 'Burgemeester' },
  { pattern: /(?<!\p{L})Sainte-(?=\p{L})/u, replacements: ['Ste-'], label: 'Sainte-' },
  { pattern: /(?<!\p{L})Saint-(?=\p{L})/u, replacements: ['St-'], label: 'Saint-' },
  { pattern: /(?<!\p{L})Sint-(?=\p{L})/u, replacements: ['St-'], label: 'Sint-' },
];

/** Whether the name has a word the abbreviated form would shorten. */
export const abbreviable = (name: string) => ABBREVIATIONS.some((a) => a.pattern.test(name));

/** The name with one of its abbreviable words shortened (seeded pick), and which: "Avenue → Av.". */
export function abbreviatedStreet(name: string, rng: Rng): { text: string; detail: string } | undefined {
  const applicable = ABBREVIATIONS.filter((a) => a.pattern.test(name));
  if (applicable.length === 0) return undefined;
  const a = rng.pick(applicable);
  const replacement = rng.pick(a.replacements);
  const text = name.replace(a.pattern, replacement);
  return { text, detail: `${a.label} → ${replacement.replace('$1', '')}` };
}

const COUNTRY_WORDS = { NL: ['Nederland', 'Netherlands'], fr: ['Belgique', 'Belgium'], nl: ['België', 'Belgium'] };
const NO_NUMBER_MARKERS = ['zn', 'z/n', 's/n', '-'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Every form the address can be written in, each text seeded by `rng` (the order of the calls is fixed). */
export function formTexts(a: FormAddress, rng: Rng): FormText[] {
  const dutch = isDutchPostcode(a.postcode);
  const pc = spacedPostcode(a.postcode);
  const house = `${a.number}${a.suffix}`;
  const cityFr = a.cityFr ?? a.city;
  const names = {
    nl: { street: a.streetname, city: a.city },
    ...(a.streetFr ? { fr: { street: a.streetFr, city: cityFr } } : {}),
  } as Record<'nl' | 'fr', { street: string; city: string } | undefined>;
  /** Brussels: French or Dutch, seeded; elsewhere the register's names. */
  const pickLanguage = (): 'nl' | 'fr' => (names.fr && rng.chance(0.5) ? 'fr' : 'nl');
  const out: FormText[] = [];
  const push = (t: Omit<FormText, 'wants'> & { wants?: FormText['wants'] }) => out.push({ wants: 'address', ...t });

  {
    const language = pickLanguage();
    const n = names[language]!;
    push({
      form: 'street number city',
      text: `${n.street} ${house} ${n.city}`,
      cut: `${n.street} ${house}`,
      gives: NO_POSTCODE,
      language,
    });
  }
  if (dutch) {
    const glued = rng.chance(0.5);
    const text = `${glued ? a.postcode.replace(/\s/g, '') : pc} ${house}`.toLowerCase();
    push({
      form: 'postcode number',
      text,
      cut: text,
      gives: { street: false, postcode: true, city: false },
      language: 'nl',
      detail: glued ? 'glued' : 'spaced',
    });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    const text = `${n.city}, ${n.street} ${house}`;
    push({ form: 'city, street number', text, cut: text, gives: NO_POSTCODE, language });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    push({
      form: 'street number, postcode city',
      text: `${n.street} ${house}, ${pc} ${n.city}`,
      cut: `${n.street} ${house}`,
      gives: ALL,
      language,
    });
  }
  if (names.fr) {
    push({
      form: 'french city',
      text: `${names.fr.street} ${house}, ${pc} ${names.fr.city}`,
      cut: `${names.fr.street} ${house}`,
      gives: ALL,
      language: 'fr',
    });
  }
  if (a.cityFr && a.cityFr !== a.city) {
    push({
      form: 'dutch street, french city',
      text: `${a.streetname} ${house}, ${pc} ${a.cityFr}`,
      cut: `${a.streetname} ${house}`,
      gives: ALL,
      language: 'nl',
    });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    push({
      form: 'number first',
      text: `${house} ${n.street}, ${pc} ${n.city}`,
      cut: `${house} ${n.street}`,
      gives: ALL,
      language,
    });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    const country = rng.pick(dutch ? COUNTRY_WORDS.NL : COUNTRY_WORDS[language]);
    push({
      form: 'envelope with country',
      text: `${n.street} ${house}, ${pc} ${n.city}, ${country}`,
      cut: `${n.street} ${house}`,
      gives: ALL,
      language,
      detail: country,
    });
  }
  {
    const candidates = (['nl', 'fr'] as const).filter((l) => names[l] && abbreviable(names[l].street));
    if (candidates.length > 0) {
      const language = rng.pick(candidates);
      const n = names[language]!;
      const short = abbreviatedStreet(n.street, rng)!;
      push({
        form: 'abbreviated street type',
        text: `${short.text} ${house}, ${pc} ${n.city}`,
        cut: `${short.text} ${house}`,
        gives: ALL,
        language,
        detail: short.detail,
      });
    }
  }
  if (a.suffix === '' && /^\d+$/.test(a.number)) {
    const language = pickLanguage();
    const n = names[language]!;
    const to = Number(a.number) + 2;
    const separator = rng.pick(['-', '/']);
    push({
      form: 'range',
      text: `${n.street} ${a.number}${separator}${to}, ${pc} ${n.city}`,
      cut: `${n.street} ${a.number}${separator}${to}`,
      gives: ALL,
      language,
      detail: separator,
      rangeTo: to,
    });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    const code = Array.from({ length: 3 }, () => rng.pick([...LETTERS])).join('');
    push({
      form: 'locality in brackets',
      text: `${n.street} ${house}${rng.chance(0.5) ? ' ' : ''}(${code}), ${pc} ${n.city}`,
      cut: `${n.street} ${house}`,
      gives: ALL,
      language,
    });
  }
  {
    const language = pickLanguage();
    const n = names[language]!;
    const marker = rng.pick(NO_NUMBER_MARKERS);
    push({
      form: 'no-number marker',
      text: `${n.street} ${marker}, ${pc} ${n.city}`,
      cut: `${n.street} ${marker}`,
      gives: ALL,
      wants: 'street',
      language,
      detail: marker,
    });
  }
  return out;
}
