import { describe, expect, it } from 'vitest';
import { readTypedText } from '../../../../../src/features/search/typedText.js';

const known = (words: readonly string[]) => ['delft', 'elsene'].includes(words.join(' ').toLowerCase());
const read = (text: string) => readTypedText(text, known);

describe('readTypedText: what a text says besides the address (issue 49)', () => {
  it.each([
    ['Rue Neuve 16, 1000 Bruxelles, Belgique', 'Rue Neuve 16, 1000 Bruxelles', 'BE'],
    ['Rue Neuve 16 1000 Bruxelles Belgium', 'Rue Neuve 16 1000 Bruxelles', 'BE'],
    ['Mekelweg 8, 2628 CD Delft, Nederland', 'Mekelweg 8, 2628 CD Delft', 'NL'],
    ['Mekelweg 8, Delft, Pays-Bas', 'Mekelweg 8, Delft', 'NL'],
    ['Mekelweg 8, Delft, NL', 'Mekelweg 8, Delft', 'NL'],
    ['Mekelweg 8, Delft NLD', 'Mekelweg 8, Delft NLD', undefined],
    ['Kerkstraat 1 Holland', 'Kerkstraat 1 Holland', undefined],
  ])('%j -> %j, country %s', (text, rest, country) => {
    expect(read(text)).toMatchObject({ text: rest, country, noNumber: false });
  });

  it('reads a bracketed known area as its own part and drops any other bracket', () => {
    expect(read('Rue de la Liberté(RUM) 12, 1000 Bruxelles').text).toBe('Rue de la Liberté 12, 1000 Bruxelles');
    expect(read('Kerkstraat 1 (Delft)').text).toBe('Kerkstraat 1, Delft');
    expect(read('Kerkstraat [achter] 1, Delft').text).toBe('Kerkstraat 1, Delft');
  });

  it.each([
    'Kerkstraat zn, Delft',
    'Kerkstraat z/n Delft',
    'Rue Haute s/n, Elsene',
    'Rue Haute S.N. Elsene',
    'Kerkstraat - Delft',
  ])('%j has no number', (text) => {
    expect(read(text).noNumber).toBe(true);
    expect(read(text).text).not.toMatch(/\b(?:zn|sn)\b|\/|-/i);
  });

  it('keeps the letters of a Dutch postcode that look like a mark, and brackets where names hold them', () => {
    expect(read('Oosterhamriklaan 285, 9715 SN Groningen')).toMatchObject({
      text: 'Oosterhamriklaan 285, 9715 SN Groningen',
      noNumber: false,
    });
    expect(read('9715 ZN 3').noNumber).toBe(false);
    expect(readTypedText('Bergen (L.)', known, { keepBrackets: true }).text).toBe('Bergen (L.)');
  });

  it('keeps a dash after a number (a range or an addition) and a first word that looks like a mark', () => {
    expect(read('Fok 56 - 206, Heerenveen')).toMatchObject({ text: 'Fok 56 - 206, Heerenveen', noNumber: false });
    expect(read('Sn 1')).toMatchObject({ text: 'Sn 1', noNumber: false });
  });
});
