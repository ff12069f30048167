import { describe, expect, it } from 'vitest';
import { looksLikeDutchPostcode, normalisePostcode } from '../../../../core/text/postcode.js';

describe('normalisePostcode', () => {
  it.each([
    ['2628 CD', '2628cd'],
    ['2628cd', '2628cd'],
    ['2628CD', '2628cd'],
    [' 2628-CD ', '2628cd'],
    ['2628  cd', '2628cd'],
    ['NL-2628 CD', '2628cd'],
    ['1000', '1000'],
    [' 1000 ', '1000'],
    ['B-1000', '1000'],
    ['BE 1000', '1000'],
    ['', ''],
    ['   ', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normalisePostcode(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const s of ['2628 CD', 'B-1000', 'NL2628CD']) {
      const once = normalisePostcode(s);
      expect(normalisePostcode(once)).toBe(once);
    }
  });
});

describe('looksLikeDutchPostcode', () => {
  it.each([
    ['2628 CD', true],
    ['2628cd', true],
    [' 2628CD ', true],
    ['2628-CD', false],
    ['2628  CD', false],
    ['1000', false],
    ['2628 C', false],
    ['26280 CD', false],
    ['', false],
  ])('%j -> %s', (input, expected) => {
    expect(looksLikeDutchPostcode(input)).toBe(expected);
  });
});
