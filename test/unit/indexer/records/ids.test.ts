import { v5, validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  derivedCityKey,
  ID_NAMESPACE,
  sourceKey,
  stableId,
  uuidv5,
} from '../../../../indexer/records/ids.js';

describe('stable ids', () => {
  it('are UUID v5, deterministic and level-scoped', () => {
    const id = stableId('municipalities', 'GM0503');
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(5);
    expect(stableId('municipalities', 'GM0503')).toBe(id);
    expect(stableId('provinces', 'GM0503')).not.toBe(id);
    expect(sourceKey('municipalities', 'GM0503')).toBe('municipalities:GM0503');
  });

  it('never change (clients store them): pinned values', () => {
    expect(ID_NAMESPACE).toBe('4f7d5c1e-2b8a-5e39-9c61-0d3a8e2f7b14');
    expect(stableId('countries', 'NLD')).toBe('319c908d-6eb7-5896-ac2a-b2764a4d942c');
    expect(stableId('municipalities', 'GM0503')).toBe('99c74220-1304-5f55-b99f-1044cd7ada78');
  });

  it('are computed exactly as the uuid package computes v5, for any name length and script', () => {
    const names = [
      '',
      'é',
      'rue du Bailli',
      'Ελληνικά 𝄞 ÿ€',
      'x'.repeat(47),
      'x'.repeat(48),
      'x'.repeat(55),
      'x'.repeat(56),
    ];
    names.push('x'.repeat(119), 'x'.repeat(120), 'ü'.repeat(300), 'addresses:josephinebakerstraat|2||1311ga|almere');
    for (const name of names) expect(uuidv5(name)).toBe(v5(name, ID_NAMESPACE));
  });

  it('key addresses by their normalised full address', () => {
    const key = addressKey({
      streetKey: 'mekelweg',
      number: '8',
      suffixKey: 'a1',
      postcodeKey: '2628cd',
      cityKey: 'delft',
    });
    expect(key).toBe('mekelweg|8|a1|2628cd|delft');
    expect(derivedCityKey('leeuwarden', 'municipalities:GM0080')).toBe('leeuwarden@municipalities:GM0080');
  });
});
