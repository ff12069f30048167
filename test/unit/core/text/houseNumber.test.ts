import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatSuffix,
  type HouseNumber,
  parseHouseNumber,
  parseHouseNumberParts,
  parseSuffix,
  suffixKey,
  boxKeys,
  sameBox,
} from '../../../../core/text/houseNumber.js';

const hn = (number: number, letter = '', addition = ''): HouseNumber => ({ number, letter, addition });

describe('parseHouseNumber', () => {
  it.each<[string, HouseNumber]>([
    ['12', hn(12)],
    [' 12 ', hn(12)],
    ['012', hn(12)],
    ['99999', hn(99999)],
    ['12a', hn(12, 'a')],
    ['12A', hn(12, 'a')],
    ['12 A', hn(12, 'a')],
    ['12-A', hn(12, 'a')],
    ['12-a', hn(12, 'a')],
    ['12.a', hn(12, 'a')],
    ['10A', hn(10, 'a')],
    ['175F', hn(175, 'f')],
    ['139A-1', hn(139, 'a', '1')],
    ['139 a 1', hn(139, 'a', '1')],
    ['139a1', hn(139, 'a', '1')],
    ['139 A - 1', hn(139, 'a', '1')],
    ['96C1', hn(96, 'c', '1')],
    ['10A3', hn(10, 'a', '3')],
    ['1e5', hn(1, 'e', '5')],
    ['1-II', hn(1, '', 'ii')],
    ['1-I', hn(1, 'i')],
    ['12bis', hn(12, '', 'bis')],
    ['2BIS', hn(2, '', 'bis')],
    ['12 bis', hn(12, '', 'bis')],
    ['12a bis', hn(12, 'a', 'bis')],
    ['12abis', hn(12, 'a', 'bis')],
    ['12 hs', hn(12, '', 'hs')],
    ['12-hs', hn(12, '', 'hs')],
    ['12 huis', hn(12, '', 'huis')],
    ['12 bg', hn(12, '', 'bg')],
    ['12-2', hn(12, '', '2')],
    ['12/2', hn(12, '', '2')],
    ['12 2', hn(12, '', '2')],
    ['12-14', hn(12, '', '14')],
    ['16EA', hn(16, '', 'ea')],
    ['3 RC+2', hn(3, '', 'rc2')],
    ['3 3ét', hn(3, '', '3et')],
    ['3 b003', hn(3, 'b', '003')],
    ['1/10', hn(1, '', '10')],
    ['122/', hn(122, '', '')],
    ['12 A-1', hn(12, 'a', '1')],
  ])('%j', (input, expected) => {
    expect(parseHouseNumber(input)).toEqual(expected);
  });

  it.each([
    '',
    '   ',
    'abc',
    'a12',
    '0',
    '000',
    '-1',
    '12.5',
    '12,5',
    '100000',
    '123456',
    '12?',
    '12 a;b',
    '12 kerkstraatnoord',
  ])('rejects %j', (input) => {
    expect(parseHouseNumber(input)).toBeNull();
  });

  it.each([
    ['Rotterdamseweg 139A-1', '139A-1', hn(139, 'a', '1'), '139A-1'],
    ['Cornelis Trompstraat 1-II', '1-II', hn(1, '', 'ii'), '1-II'],
    ['Minervaweg 10A', '10A', hn(10, 'a'), '10A'],
    ['Kinkerstraat 175F', '175F', hn(175, 'f'), '175F'],
  ])('%s: parses and formats back', (_label, input, expected, display) => {
    const h = parseHouseNumber(input);
    expect(h).toEqual(expected);
    expect(`${h?.number}${formatSuffix(h?.letter ?? '', h?.addition ?? '')}`).toBe(display);
  });
});

describe('parseHouseNumberParts', () => {
  it.each<[[string, string, string], HouseNumber]>([
    [['12', '', ''], hn(12)],
    [['12', 'A', ''], hn(12, 'a')],
    [['12', 'a', ''], hn(12, 'a')],
    [['139', 'A', '1'], hn(139, 'a', '1')],
    [['1', '', 'II'], hn(1, '', 'ii')],
    [['1', '', 'I'], hn(1, '', 'i')],
    [['12', '', 'hs'], hn(12, '', 'hs')],
    [['012', '', ''], hn(12)],
    // Brussels boxes and floors in the addition column
    [['3', '', 'b003'], hn(3, '', 'b003')],
    [['3', '', '0003'], hn(3, '', '0003')],
    [['3', '', '3KSB'], hn(3, '', '3ksb')],
    [['3', '', 'RC+2'], hn(3, '', 'rc2')],
    [['3', '', '3ét'], hn(3, '', '3et')],
    [['3', '', 'b 9'], hn(3, '', 'b9')],
    [['3', '', 'b1.1'], hn(3, '', 'b11')],
    [['3', '', 'b%20%207'], hn(3, '', 'b7')],
    [['3', '', 'N°5'], hn(3, '', 'n5')],
    [['3', '', '??'], hn(3)],
    // raw forms left in the Brussels number column
    [['2BIS', '', ''], hn(2, '', 'bis')],
    [['16EA', '', ''], hn(16, '', 'ea')],
    [['1/10', '', ''], hn(1, '', '10')],
    [['96C1', '', ''], hn(96, 'c', '1')],
    [['39.1', '', ''], hn(39, '', '1')],
    [['122/', '', ''], hn(122)],
    [['10A', '', '1'], hn(10, 'a', '1')],
    // a letter column that is not a single letter is part of the addition
    [['5', 'bis', ''], hn(5, '', 'bis')],
  ])('%j', ([n, l, a], expected) => {
    expect(parseHouseNumberParts(n, l, a)).toEqual(expected);
  });

  it.each([
    ['', '', ''],
    ['0', 'A', ''],
    ['abc', '', ''],
    ['100000', '', ''],
  ])('rejects %j', (n, l, a) => {
    expect(parseHouseNumberParts(n, l, a)).toBeNull();
  });

  // The split may differ (the columns are authoritative), the matched key never does.
  it.each([
    ['139', 'A', '1'],
    ['1', '', 'II'],
    ['1', '', 'I'],
    ['12', '', '2'],
    ['12', 'b', ''],
    ['3', '', 'b003'],
    ['3', '', 'RC+2'],
    ['3', '', '3ét'],
    ['2BIS', '', ''],
    ['16EA', '', ''],
    ['96C1', '', ''],
    ['1/10', '', ''],
  ])('suffixKey of %j equals that of the joined string', (n, l, a) => {
    const parts = parseHouseNumberParts(n, l, a);
    const joined = parseHouseNumber(`${n}${l}${a === '' ? '' : `-${a}`}`);
    expect(parts).not.toBeNull();
    expect(joined).not.toBeNull();
    expect(parts?.number).toBe(joined?.number);
    expect(suffixKey(parts as HouseNumber)).toBe(suffixKey(joined as HouseNumber));
  });
});

describe('suffixKey', () => {
  it.each([
    [{ letter: '', addition: '' }, ''],
    [{ letter: 'a', addition: '' }, 'a'],
    [{ letter: 'a', addition: '1' }, 'a1'],
    [{ letter: '', addition: 'ii' }, 'ii'],
  ])('%j -> %j', (h, expected) => {
    expect(suffixKey(h)).toBe(expected);
  });

  it.each([
    ['12A', '12 a', '12-A'],
    ['139A-1', '139 a 1', '139a1'],
    ['3 b003', '3 b 003', '3-B003'],
  ])('same key for %j, %j and %j', (a, b, c) => {
    const keys = [a, b, c].map((s) => suffixKey(parseHouseNumber(s) as HouseNumber));
    expect(new Set(keys).size).toBe(1);
  });
});

describe('formatSuffix', () => {
  it.each([
    ['', '', ''],
    ['a', '', 'A'],
    ['a', '1', 'A-1'],
    ['', 'ii', '-II'],
    ['', '2', '-2'],
    ['', 'bis', '-BIS'],
    ['', 'b003', '-B003'],
  ])('(%j, %j) -> %j', (letter, addition, expected) => {
    expect(formatSuffix(letter, addition)).toBe(expected);
  });
});

describe('parseSuffix', () => {
  it.each([
    ['', { letter: '', addition: '' }],
    ['a', { letter: 'a', addition: '' }],
    ['A', { letter: 'a', addition: '' }],
    ['A-1', { letter: 'a', addition: '1' }],
    ['a 1', { letter: 'a', addition: '1' }],
    ['-2', { letter: '', addition: '2' }],
    ['bis', { letter: '', addition: 'bis' }],
    ['-II', { letter: '', addition: 'ii' }],
    [' b003 ', { letter: 'b', addition: '003' }],
  ])('%j -> %j', (input, expected) => {
    expect(parseSuffix(input)).toEqual(expected);
  });

  it('round-trips formatSuffix', () => {
    for (const [letter, addition] of [
      ['a', ''],
      ['a', '1'],
      ['', 'ii'],
      ['', '2'],
      ['', 'bis'],
    ] as const) {
      expect(parseSuffix(formatSuffix(letter, addition))).toEqual({ letter, addition });
    }
  });
});

describe('Belgian boxes', () => {
  it.each([
    ['117 bus 1', '1'],
    ['117 BUS 1', '1'],
    ['117 bte 1', '1'],
    ['117 boîte 1', '1'],
    ['117 boite 1', '1'],
    ['117/1', '1'],
    ['117-1', '1'],
    ['117 b 1', 'b1'],
    ['117 b1', 'b1'],
    ['117 bus ET02', 'et02'],
    ['117 bus RC', 'rc'],
    // Letter boxes and floor codes as the register writes them.
    ['117 bus A', 'a'],
    ['117 bte RDC', 'rdc'],
    ['117 boîte ETRC', 'etrc'],
    ['117 bus SS', 'ss'],
  ])('%j reads box key %j', (text, key) => {
    const h = parseHouseNumber(text);
    expect(h?.number).toBe(117);
    expect(suffixKey(h as HouseNumber)).toBe(key);
  });

  it('spells a numeric box every way the register writes it, the asked spelling first', () => {
    expect(boxKeys('3').slice(0, 8)).toEqual(['3', '03', '003', '0003', 'b3', 'b03', 'b003', 'b0003']);
    // The register also writes the box word before the digits (BT03, BTE3, BUS3).
    expect(boxKeys('3')).toEqual(expect.arrayContaining(['bt03', 'bt003', 'bte3', 'bus3']));
    expect(boxKeys('3')).toHaveLength(20);
    expect(new Set(boxKeys('bt03'))).toEqual(new Set(boxKeys('3')));
    expect(boxKeys('bt2d')).toEqual(['bt2d']);
    expect(boxKeys('b003')[0]).toBe('b003');
    expect(new Set(boxKeys('b003'))).toEqual(new Set(boxKeys('3')));
    expect(new Set(boxKeys('0003'))).toEqual(new Set(boxKeys('3')));
    expect(boxKeys('12')).toContain('b012');
  });

  it('tells whether a stored key spells the box asked for, as boxKeys spells it, without building the list', () => {
    expect(sameBox('3', 'b003')).toBe(true);
    expect(sameBox('bt03', 'bus3')).toBe(true);
    expect(sameBox('a3', 'ab03')).toBe(true);
    expect(sameBox('3', '4')).toBe(false);
    expect(sameBox('3', 'a3')).toBe(false);
    // boxKeys pads to four digits: the register's widest.
    expect(sameBox('3', '00003')).toBe(false);
    expect(sameBox('00003', '0003')).toBe(true);
    expect(sameBox('et02', 'et02')).toBe(true);
    expect(sameBox('et02', 'et2')).toBe(false);
    expect(sameBox('', '')).toBe(true);
    const part = fc.constantFrom(
      '',
      '',
      'a',
      'b',
      'c',
      'e',
      'bt',
      'bte',
      'bus',
      'rc',
      '0',
      '00',
      '000',
      '1',
      '3',
      '12',
    );
    const key = fc.array(part, { maxLength: 4 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(key, key, (asked, stored) => sameBox(asked, stored) === boxKeys(asked).includes(stored)),
      { numRuns: 5000 },
    );
  });

  it('keeps a box with letters as written', () => {
    expect(boxKeys('et02')).toEqual(['et02']);
    expect(boxKeys('rc')).toEqual(['rc']);
    expect(boxKeys('a1b')).toEqual(['a1b']);
    expect(boxKeys('')).toEqual(['']);
  });

  it('spells a house letter and a numeric box without zeros and with (register: 27A + 003; typed: 27A bus 3)', () => {
    expect(boxKeys('a3').slice(0, 4)).toEqual(['a3', 'a03', 'a003', 'a0003']);
    expect(new Set(boxKeys('a003'))).toEqual(new Set(boxKeys('a3')));
    expect(boxKeys('abt4')).toEqual(expect.arrayContaining(['a4', 'ab04', 'a004']));
    expect(boxKeys('ab12')).toContain('a12');
  });

  it('reads a box word after the house letter ("27A bus 3") and keeps bt as written ("bt 3": the register has BT03)', () => {
    expect(suffixKey(parseHouseNumber('27A bus 3')!)).toBe('a3');
    expect(suffixKey(parseHouseNumber('132B bte 8')!)).toBe('b8');
    expect(suffixKey(parseHouseNumber('26B boîte 2')!)).toBe('b2');
    expect(suffixKey(parseHouseNumber('258A bus Ab06')!)).toBe('aab06');
    expect(suffixKey(parseHouseNumber('114 bt 3')!)).toBe('bt3');
    expect(suffixKey(parseHouseNumber('31/bt2')!)).toBe('bt2');
  });
});
