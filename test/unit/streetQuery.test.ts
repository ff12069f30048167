import { describe, expect, it } from 'vitest';
import {
  exactForwardRequest,
  exactLookupRequest,
  fuzzyStreetClause,
  nearestNumberRequests,
  parseStreetQuery,
  type StreetQuery,
  streetKeyFilter,
} from '../../src/search/streetQuery.js';

function parse(body: Parameters<typeof parseStreetQuery>[0]): StreetQuery {
  const result = parseStreetQuery(body);
  if (!result.ok) throw new Error(result.message);
  return result.query;
}

describe('parseStreetQuery', () => {
  it('splits number and suffix and normalises street, postcode and city', () => {
    const q = parse({ streetname: "'s-Gravendijkwal", number: '139 A-1', postcode: '2628 cd', city: 'DELFT' });
    expect(q).toMatchObject({ houseNumber: 139, postcodeKey: '2628cd', cityKey: 'delft' });
    expect(q.suffixKey).toBe('a1');
    expect(q.streetKey).toBe(parse({ streetname: 'S Gravendijkwal', number: '1' }).streetKey);
  });

  it('leaves the suffix open for a bare number, and lets `suffix` name one', () => {
    expect(parse({ streetname: 'Mekelweg', number: '12' }).suffixKey).toBeUndefined();
    expect(parse({ streetname: 'Mekelweg', number: '12', suffix: 'A' }).suffixKey).toBe('a');
  });

  it('reports an unparsable number with its field path', () => {
    expect(parseStreetQuery({ streetname: 'Mekelweg', number: 'abc' })).toMatchObject({ ok: false, path: 'body.number' });
  });
});

describe('query builders', () => {
  const q = parse({ streetname: 'Mekelweg', number: '8' });

  it('exact lookup filters on street key and number only, sorted stably', () => {
    const req = exactLookupRequest(q);
    expect(req.query).toEqual({ bool: { filter: [{ term: { house_number: 8 } }, { term: { street_key: q.streetKey } }] } });
    expect(req.sort).toEqual([{ city_key: 'asc' }, { postcode_key: 'asc' }, { house_number: 'asc' }, { suffix_key: 'asc' }, { id: 'asc' }]);
  });

  it('postcode + number without a street filters on the postcode', () => {
    const pc = parse({ postcode: '2628CD', number: '8' });
    expect(exactForwardRequest(pc).query).toMatchObject({
      bool: { filter: [{ term: { house_number: 8 } }, { term: { postcode_key: '2628cd' } }] },
    });
  });

  it('forward prefers the exact suffix (or none for a bare number) and ranks by distance with a focus', () => {
    const focused = parse({ streetname: 'Mekelweg', number: '8', lat: 52, lon: 4.37 });
    const req = exactForwardRequest(focused);
    expect(req.size).toBe(1);
    expect(JSON.stringify(req.query)).toContain('"suffix_key":{"value":"","boost":4}');
    expect((req.sort as unknown[])[1]).toEqual({ _geo_distance: { location: { lat: 52, lon: 4.37 }, order: 'asc', unit: 'm' } });
  });

  it('scales fuzziness with the length of the street key and protects the first letter', () => {
    const short = fuzzyStreetClause(parse({ streetname: 'Laan', number: '1' }));
    expect(JSON.stringify(short)).toContain('"fuzziness":0');
    const long = fuzzyStreetClause(q);
    expect(JSON.stringify(long)).toContain('"fuzziness":1');
    expect(JSON.stringify(long)).toContain('"prefix_length":1');
  });

  it('nearest-number requests look below and above the number on one street', () => {
    const [below, above] = nearestNumberRequests(q, streetKeyFilter('mekelweg'));
    expect(JSON.stringify(below?.query)).toContain('"lt":8');
    expect((below?.sort as unknown[])[0]).toEqual({ house_number: 'desc' });
    expect(JSON.stringify(above?.query)).toContain('"gt":8');
    expect((above?.sort as unknown[])[0]).toEqual({ house_number: 'asc' });
  });
});
