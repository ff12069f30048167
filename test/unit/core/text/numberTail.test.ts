import { describe, expect, it } from 'vitest';
import { readNumberTail } from '../../../../core/text/numberTail.js';
import { parseHouseNumber, suffixKey } from '../../../../core/text/houseNumber.js';

/** Known cities: the words begin with one's whole name (the search box also asks a typo and a first word). */
const CITIES = ['delft', 'elsene', 'groningen', 'den haag', 'ede', 'brussel', 'ukkel', '2e exloermond'];
const fold = (w: string) => w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const isCityStart = (words: readonly string[]) =>
  CITIES.some((c) => words.slice(0, c.split(' ').length).map(fold).join(' ') === c);

/** The tail read after `number` in `rest` (split on spaces): the words taken and the suffix key they make. */
function tail(number: string, rest: string) {
  const t = readNumberTail(number, rest.split(' ').filter(Boolean), isCityStart);
  const parsed = parseHouseNumber(t.text);
  return { taken: t.length, key: parsed ? suffixKey(parsed) : null };
}

describe('readNumberTail', () => {
  // Every box value below is a Brussels register value (bulk data, addresses-be-brussel.csv.gz), every addition a
  // BAG toevoeging (the NL bulk files); the key is what the index stores for that register row (compacted).
  it.each([
    // Box words, with and without a dot.
    ['114', 'bt 3 Ukkel', 2, 'bt3'],
    ['114', 'bt. 3', 2, 'bt3'],
    ['114', 'bt. 3', 2, 'bt3'],
    ['114', 'bte. 3', 2, '3'],
    ['114', 'boîte 3', 2, '3'],
    ['16', 'bus 3 Brussel', 2, '3'],
    ['8', 'b 3', 2, 'b3'],
    ['8', 'b. 3', 2, 'b3'],
    // The register's own boxes: dots, slashes, spaces, dashes, accents, letters and digits mixed.
    ['52', 'bus 2.11', 2, '211'],
    ['26', 'bus F/88', 2, 'f88'],
    ['37', 'bus b 2', 3, 'b2'],
    ['36', 'bus A 10 Elsene', 3, 'a10'],
    ['5', 'bus 7 RC Elsene', 3, '7rc'],
    ['5', 'bus 7 2', 3, '72'],
    ['49', 'bus 0M/H', 2, '0mh'],
    ['35', 'bus 7étR', 2, '7etr'],
    ['25', 'bus RCà2', 2, 'rca2'],
    ['19', 'bus b3.3', 2, 'b33'],
    ['9', 'bus RC+1', 2, 'rc1'],
    ['12', 'bus ET-1', 2, 'et1'],
    ['51', 'bus .2E', 2, '2e'],
    ['10', 'bus b01D', 2, 'b01d'],
    ['16', 'bus RDC', 2, 'rdc'],
    // A bare word after the number.
    ['32a', 'rc 1050 elsene', 1, 'arc'],
    ['556', '3e 1050 elsene', 1, '3e'],
    ['3', 'et01 1030 schaarbeek', 1, 'et01'],
    ['13', '120 Almere', 1, '120'],
    ['8', 'a Delft', 1, 'a'],
    ['139', 'a 1 Delft', 2, 'a1'],
    ['12', 'bis', 1, 'bis'],
    ['7', 'etrc Schaarbeek', 1, 'etrc'],
    ['4a', 'ss', 1, 'ass'],
    ['69', '1e Elsene', 1, '1e'],
    ['64a', '/5', 1, 'a5'],
    ['8', '.02 Koekelberg', 1, '02'],
    // Dashes: lone and spaced.
    ['117', '-1 Elsene', 1, '1'],
    ['368', '-211 Groningen', 1, '211'],
    ['56', '- 206', 2, '206'],
    ['20', '- 22', 2, '22'],
    ['1', '- II', 2, 'ii'],
  ])('%s %s', (number, rest, taken, key) => {
    expect(tail(number, rest)).toEqual({ taken, key });
  });

  it.each([
    // A city is never a tail: after a box word, bare, or after a spaced dash.
    ['8', 'bus Delft'],
    ['8', 'Ede'],
    ['1', 'Den Haag'],
    ['2', '2e Exloërmond'],
    ['5', '- Groningen'],
    // Nothing after the number, or a long word (a city the reader does not know).
    ['8', ''],
    ['8', 'Atlantis'],
    ['8', 'Delft Zuid'],
  ])('takes nothing of %s %s', (number, rest) => {
    expect(tail(number, rest).taken).toBe(0);
  });

  it('reads letters after a lone b as the house letter, not a box', () => {
    expect(tail('16', 'b rdc')).toEqual({ taken: 1, key: 'b' });
  });
});
