import { describe, expect, it } from 'vitest';
import { matchesFilters, propertyText, readField } from '../../../../indexer/transform/fields.js';

const props = {
  ref: '24',
  admin_level: 10,
  osm_type: 'way',
  osm_id: 123,
  empty: '  ',
  nothing: null,
  name: ' Voorhof ',
};

describe('readField', () => {
  it('reads properties as trimmed text', () => {
    expect(readField(props, 'name')).toBe('Voorhof');
    expect(readField(props, 'admin_level')).toBe('10');
    expect(readField(props, 'nothing')).toBe('');
    expect(readField(props, 'missing')).toBe('');
    expect(readField(props, undefined)).toBe('');
    expect(propertyText({ o: { a: 1 } }, 'o')).toBe('');
  });

  it('supports constants, prefixes, joins and first-non-empty', () => {
    expect(readField(props, { value: 'NL' })).toBe('NL');
    expect(readField(props, { property: 'ref', prefix: 'WK0503' })).toBe('WK050324');
    expect(readField(props, { property: 'empty', prefix: 'WK0503' })).toBe('');
    expect(readField(props, { join: ['osm_type', 'osm_id'] })).toBe('way/123');
    expect(readField(props, { join: ['osm_type', 'missing'] })).toBe('');
    expect(readField(props, { first: ['missing', 'empty', { join: ['osm_type', 'osm_id'], separator: ':' }] })).toBe(
      'way:123',
    );
  });
});

describe('matchesFilters', () => {
  it('compares as strings and requires every filter', () => {
    expect(matchesFilters(props, [])).toBe(true);
    expect(matchesFilters(props, [{ property: 'admin_level', equals: '10' }])).toBe(true);
    expect(matchesFilters(props, [{ property: 'admin_level', equals: 10 }])).toBe(true);
    expect(matchesFilters(props, [{ property: 'ref', in: ['11', '24'] }])).toBe(true);
    expect(matchesFilters(props, [{ property: 'ref', notIn: ['24'] }])).toBe(false);
    expect(matchesFilters(props, [{ property: 'missing', notIn: ['GM0998'] }])).toBe(true);
    expect(
      matchesFilters(props, [
        { property: 'ref', exists: true },
        { property: 'missing', exists: false },
      ]),
    ).toBe(true);
    expect(
      matchesFilters(props, [
        { property: 'admin_level', equals: '10' },
        { property: 'ref', equals: '11' },
      ]),
    ).toBe(false);
  });
});

describe('identifiers stay text', () => {
  it('keeps a leading zero and pads a fixed-width BAG id only where the manifest asks', () => {
    const bag = { 'ref:bag': '503100000004746', full: '0503100000004746', name: 'Oude Kerk' };
    expect(readField(bag, 'full')).toBe('0503100000004746');
    expect(readField(bag, 'ref:bag')).toBe('503100000004746');
    expect(readField(bag, { property: 'ref:bag', padStart: 16 })).toBe('0503100000004746');
    expect(readField(bag, { property: 'full', padStart: 16 })).toBe('0503100000004746');
    // Only digit strings are padded: anything else is not the fixed-width code.
    expect(readField(bag, { property: 'name', padStart: 16 })).toBe('Oude Kerk');
  });
});
