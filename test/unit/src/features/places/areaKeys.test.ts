import { describe, expect, it } from 'vitest';
import { AreaKeys } from '../../../../../src/features/places/areaKeys.js';
import { readPlaceQuery } from '../../../../../src/features/places/placeQueries.js';

const NL = ['nederland', 'netherlands', 'pays bas'];
const keys = new AreaKeys([
  { keys: ['delft'], qualifiers: ['delft', 'zuid holland', ...NL] },
  { keys: ['den haag', 's gravenhage'], qualifiers: ['s gravenhage', 'den haag', 'zuid holland', ...NL] },
  { keys: ['zuid holland'], qualifiers: NL },
  { keys: ['delfgauw'], qualifiers: ['pijnacker nootdorp', 'zuid holland', ...NL] },
  { keys: ['a'], qualifiers: [] },
  { keys: ['delft'], qualifiers: ['delft', 'zuid holland', ...NL] },
]);

describe('the areas type-ahead can name, in memory', () => {
  it('holds each key once', () => {
    expect(keys.size).toBe(6);
  });

  it('matches a key exactly, or by its start from two characters (the place query prefix tier)', () => {
    expect(keys.matches('delft')).toBe(true);
    expect(keys.matches('delf')).toBe(true);
    expect(keys.matches('de')).toBe(true);
    expect(keys.matches('a')).toBe(true);
    // One character names an area only when it is the whole name.
    expect(keys.matches('z')).toBe(false);
    expect(keys.matches('zu')).toBe(true);
    expect(keys.matches('delfts')).toBe(false);
    expect(keys.matches('mekelw')).toBe(false);
    expect(keys.matches('zzz')).toBe(false);
    expect(keys.matches('')).toBe(false);
  });

  it('tells whether any reading of a text can name an area', () => {
    expect(keys.mayName(readPlaceQuery('Delf'))).toBe(true);
    expect(keys.mayName(readPlaceQuery("'s-Graven"))).toBe(true);
    expect(keys.mayName(readPlaceQuery('Zuid-Holl'))).toBe(true);
    // "Delft Zuid-Holland": Delft in the province; "Mekelweg Delft" would be Delft in a place called Mekelweg (the
    // first word read as the qualifier) or an area "mekelweg" in Delft: there is neither.
    expect(keys.mayName(readPlaceQuery('Delft Zuid-Holland'))).toBe(true);
    expect(keys.mayName(readPlaceQuery('Mekelweg Delft'))).toBe(false);
    expect(keys.mayName(readPlaceQuery('Mekelweg Rot'))).toBe(false);
    expect(keys.mayName(readPlaceQuery('Mekelw'))).toBe(false);
    expect(keys.mayName([])).toBe(false);
  });

  it('tells whether a text can name an area exactly, only by the start of its name, or not at all', () => {
    expect(keys.naming(readPlaceQuery('Delft'))).toBe('exact');
    expect(keys.naming(readPlaceQuery('A'))).toBe('exact');
    // A qualified reading names its place only where the qualifier is one of the place's (the first round's filter).
    expect(keys.naming(readPlaceQuery('Delft, Zuid-Holland'))).toBe('exact');
    expect(keys.naming(readPlaceQuery('Delft Nederland'))).toBe('exact');
    expect(keys.naming(readPlaceQuery('Delfg Zuid-Holland'))).toBe('prefix');
    expect(keys.naming(readPlaceQuery('Delf Pijnacker-Nootdorp'))).toBe('prefix');
    expect(keys.naming(readPlaceQuery('Plein Delft'))).toBe('none');
    expect(keys.naming(readPlaceQuery('Plein Delf'))).toBe('none');
    expect(keys.naming(readPlaceQuery('Den Haag Delft'))).toBe('none');
    // Only the start of a name: the prefix tier is the best the place query can reach.
    expect(keys.naming(readPlaceQuery('Delf'))).toBe('prefix');
    expect(keys.naming(readPlaceQuery('de'))).toBe('prefix');
    expect(keys.naming(readPlaceQuery('Zuid-Holl'))).toBe('prefix');
    expect(keys.naming(readPlaceQuery('Mekelw'))).toBe('none');
    expect(keys.naming(readPlaceQuery('z'))).toBe('none');
  });

  it('knows no area when empty', () => {
    expect(new AreaKeys([]).matches('delft')).toBe(false);
    expect(new AreaKeys([]).naming(readPlaceQuery('Delft Zuid-Holland'))).toBe('none');
  });
});
