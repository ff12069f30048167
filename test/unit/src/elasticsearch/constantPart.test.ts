import { describe, expect, it } from 'vitest';
import { constantPart } from '../../../../src/elasticsearch/constantPart.js';
import { placeSearchRequest, readPlaceQuery } from '../../../../src/features/places/placeQueries.js';

describe('constantPart: a body part shared by every request', () => {
  it('is the same object, frozen all the way down', () => {
    const part = { sort: [{ street_key: 'asc' }], fields: ['id'] };
    expect(constantPart(part)).toBe(part);
    expect(Object.isFrozen(part.sort[0])).toBe(true);
    expect(() => {
      part.fields.push('name');
    }).toThrow(TypeError);
  });

  it("cannot be changed through one request's body to alter the next", () => {
    const body = () => placeSearchRequest({ text: 'Delft', size: 5 }, readPlaceQuery('Delft'), true)!;
    const [first, second] = [body(), body()];
    expect(() => {
      (first._source as string[]).push('geometry');
    }).toThrow(TypeError);
    expect(second._source).toEqual(first._source);
  });
});
