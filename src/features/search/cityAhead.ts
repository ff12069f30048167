/**
 * Whether words after a house number begin the city (the test readNumberTail asks before it takes a word into the
 * tail), judged against the whole rest of the text. A known city's whole name, exactly, is the city. A name within
 * a typo, or the first word of a longer name (`Den` of Den Haag, `s` of 's-Gravenhage), is the city only when no
 * later word names a known city exactly: in `bus ETES, 1030 Schaarbeek` and `158 arrm 1050 elsene` the city is
 * written out after the tail, so `etes` (one typo from Ees), `arrm` (Arum) and `S` are the register's boxes, while
 * `Mekelweg 8 Etes` still reads as Ees. Pure.
 */
import type { CityTest } from '../../../core/text/numberTail.js';
import type { KnownCities } from '../cities/knownCities.js';

/**
 * The city test for the words of the number's segment (`segment`: how many words follow the number up to the next
 * comma), which are the first words of `rest` (every word after the number, to the end of the text).
 */
export function cityAhead(rest: readonly string[], segment: number, cities: KnownCities): CityTest {
  // namedFrom[i]: some word from the i-th of `rest` on begins a known city's exact name. Worked out only when a
  // typo or a first word asks (most texts never do), from the end, each position once.
  const namedFrom: (boolean | undefined)[] = [];
  const laterNamed = (from: number): boolean => {
    if (from >= rest.length) return false;
    const known = namedFrom[from];
    if (known !== undefined) return known;
    let named = false;
    for (let k = 1; k <= Math.min(cities.maxWords, rest.length - from) && !named; k++)
      named = cities.namedExactly(rest.slice(from, from + k));
    namedFrom[from] = named || laterNamed(from + 1);
    return namedFrom[from];
  };
  return (words) => {
    const first = words[0];
    if (first === undefined) return false;
    // `words` is the segment from some word on: where that word is in `rest`.
    const at = Math.max(0, segment - words.length);
    for (let k = 1; k <= Math.min(cities.maxWords, words.length); k++) {
      const match = cities.match(words.slice(0, k));
      if (match && (match.distance === 0 || !laterNamed(at + k))) return true;
    }
    // A word with a digit is a city only as part of a whole name: "2e Exloërmond" is one, "2e" before "Elsene" a floor.
    return !/\d/.test(first) && cities.startsWith(first) && !laterNamed(at + 1);
  };
}
