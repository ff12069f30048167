import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../../../core/domain/errors.js';
import {
  exactForwardRequest,
  exactLookupRequest,
  exactStreetFilter,
  forwardAmbiguity,
  fuzzyEditStages,
  fuzzyForwardRequest,
  fuzzyStreetClause,
  fuzzyStreetProbeRequest,
  nearestNumberRequests,
  rankedSpellings,
  streetExistsRequest,
  streetFuzziness,
  streetKeyFilter,
} from '../../../../../src/features/address/addressBodies.js';
import {
  describeMatch,
  fuzzyStreetConfidence,
  outranksFuzzyTier,
} from '../../../../../src/features/address/matchQuality.js';
import { parseStreetQuery, type StreetQuery } from '../../../../../src/features/address/streetRequest.js';
import { streetKey } from '../../../../../core/text/normalise.js';

/** The exact street filter: the keys as the primary name or as another language's name. */
const anyLanguage = (...keys: string[]) => ({
  bool: { should: [{ terms: { street_key: keys } }, { terms: { other_street_keys: keys } }], minimum_should_match: 1 },
});

function parse(body: Parameters<typeof parseStreetQuery>[0]): StreetQuery {
  return parseStreetQuery(body);
}

describe('parseStreetQuery', () => {
  it('splits number and suffix and normalises street, postcode and city', () => {
    const q = parse({
      streetname: "'s-Gravendijkwal",
      number: '139 A-1',
      postcode: '2628 cd',
      city: 'DELFT',
    });
    expect(q).toMatchObject({ houseNumber: 139, postcodeKey: '2628cd', cityKey: 'delft' });
    expect(q.suffixKey).toBe('a1');
    expect(q.streetKey).toBe(parse({ streetname: 'S Gravendijkwal', number: '1' }).streetKey);
  });

  it('leaves the suffix open for a bare number, and lets `suffix` name one', () => {
    expect(parse({ streetname: 'Mekelweg', number: '12' }).suffixKey).toBeUndefined();
    expect(parse({ streetname: 'Mekelweg', number: '12', suffix: 'A' }).suffixKey).toBe('a');
  });

  it('reports an unparsable number with its field path', () => {
    expect(() => parseStreetQuery({ streetname: 'Mekelweg', number: 'abc' })).toThrow(InvalidQueryError);
    expect(() => parseStreetQuery({ streetname: 'Mekelweg', number: 'abc' })).toThrow(
      expect.objectContaining({ field: 'number' }),
    );
  });
});

describe('query builders', () => {
  const q = parse({ streetname: 'Mekelweg', number: '8' });

  it('exact lookup filters on street key and number only, sorted stably', () => {
    const req = exactLookupRequest(q);
    expect(req.query).toEqual({
      bool: { filter: [{ term: { house_number: 8 } }, anyLanguage(q.streetKey)] },
    });
    expect(req.sort).toEqual([
      { city_key: 'asc' },
      { postcode_key: 'asc' },
      { house_number: 'asc' },
      { suffix_key: 'asc' },
      { id: 'asc' },
    ]);
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
    // Two hits: the runner-up tells whether the answer is ambiguous.
    expect(req.size).toBe(2);
    expect(JSON.stringify(req.query)).toContain('"suffix_key":{"value":"","boost":4}');
    expect((req.sort as unknown[])[1]).toEqual({
      _geo_distance: { location: { lat: 52, lon: 4.37 }, order: 'asc', unit: 'm' },
    });
  });

  it.each([
    ['Dam', 0],
    ['Hof', 0],
    ['Laan', 1],
    ['Markt', 1],
    ['Kerkweg', 1],
    ['Mekelweg', 2],
    ['Rotterdamseweg', 2],
  ])('allows %j an edit distance of %i', (streetname, expected) => {
    const clause = fuzzyStreetClause(parse({ streetname, number: '1' }));
    expect(streetFuzziness(streetKey(streetname))).toBe(expected);
    const fuzzy = (field: string) => ({
      fuzzy: {
        [field]: {
          value: streetKey(streetname),
          fuzziness: expected,
          prefix_length: 1,
          transpositions: true,
          max_expansions: 50,
        },
      },
    });
    // The primary name and the other languages' names, the closer scoring.
    expect(clause).toEqual({ dis_max: { queries: [fuzzy('street_key'), fuzzy('other_street_keys')] } });
  });

  it.each([
    ['Oud', [0]],
    ['Markt', [1]],
    ['Mekelweg', [1, 2]],
  ])('tries %j within edit distances %j, one edit first', (streetname, stages) => {
    expect(fuzzyEditStages(streetKey(streetname))).toEqual(stages);
  });

  it('caps the fuzzy clause at the stage being tried, never above the length-based limit', () => {
    const fuzziness = (streetname: string, maxEdits?: number) =>
      (fuzzyForwardRequest(parse({ streetname, number: '1' }), maxEdits).query as any).bool.must[0].dis_max.queries[0]
        .fuzzy.street_key.fuzziness;
    expect(fuzziness('Rotterdamseweg', 1)).toBe(1);
    expect(fuzziness('Rotterdamseweg', 2)).toBe(2);
    expect(fuzziness('Rotterdamseweg')).toBe(2);
    expect(fuzziness('Markt', 2)).toBe(1);
  });

  it('matches the fuzzy street on the whole key only (no word-by-word match that lets far names through)', () => {
    const clause = JSON.stringify(fuzzyStreetClause(parse({ streetname: 'Vna Embdenstraj', number: '1' })));
    expect(clause).not.toContain('street_text');
    expect(clause).toContain('"value":"vnaembdenstraj"');
  });

  it('fuzzy forward filters on the number and city, ranks by suffix and postcode, and returns a runner-up', () => {
    const req = fuzzyForwardRequest(parse({ streetname: 'Mekelwg', number: '8a', postcode: '2628 CD', city: 'Delft' }));
    expect(req.size).toBe(2);
    expect(req.query).toMatchObject({
      bool: {
        filter: [{ term: { house_number: 8 } }, { term: { city_key: 'delft' } }],
        should: [
          { term: { suffix_key: { value: 'a', boost: 4 } } },
          // 8a missing: 8 itself before 8b.
          { term: { suffix_key: { value: '', boost: 1 } } },
          { term: { postcode_key: { value: '2628cd', boost: 8 } } },
        ],
      },
    });
  });

  it("ranks a box's other spellings, only those some address holds once the index's suffix keys are known", () => {
    const q = parse({ streetname: 'Nieuwstraat', number: '8 bt 3', city: 'Brussel' });
    expect(rankedSpellings(q)).toHaveLength(19);
    // The register writes box 3 as b003, 0003, 3 and BT03; nobody writes bus0003.
    const held = new Set(['b003', '0003', '3', 'bt03', '', 'a', '14']);
    expect(rankedSpellings({ ...q, heldSuffixes: held })).toEqual(['3', '0003', 'b003', 'bt03']);
    const should = exactForwardRequest({ ...q, heldSuffixes: held }).query!.bool!.should;
    // As term clauses: a `terms` query is a multi-term query in Elasticsearch, whose set-up costs more than the terms.
    const anyOf = ['3', '0003', 'b003', 'bt03'].map((key) => ({ term: { suffix_key: key } }));
    expect(should).toContainEqual({ constant_score: { filter: { bool: { should: anyOf } }, boost: 3 } });
    // None held: no spellings clause at all; a key without other spellings has none either.
    const none = exactForwardRequest({ ...q, heldSuffixes: new Set(['bt3']) }).query!.bool!.should as object[];
    expect(JSON.stringify(none)).not.toContain('constant_score');
    expect(rankedSpellings(parse({ streetname: 'Mekelweg', number: '8a' }))).toEqual([]);
  });

  it('asks whether the exactly-named street exists within the narrowing', () => {
    const req = streetExistsRequest(parse({ streetname: 'Mekelweg', number: '8', city: 'Delft', postcode: '2628CD' }));
    expect(req.query).toEqual({
      bool: {
        filter: [anyLanguage('mekelweg'), { term: { city_key: 'delft' } }, { term: { postcode_key: '2628cd' } }],
      },
    });
    expect(req.size).toBe(1);
  });

  it('probes the closest fuzzy street within the city, any number', () => {
    const req = fuzzyStreetProbeRequest(parse({ streetname: 'Mekelwegg', number: '999', city: 'Delft' }));
    expect(JSON.stringify(req.query)).not.toContain('house_number');
    expect(req.query).toMatchObject({ bool: { filter: [{ term: { city_key: 'delft' } }] } });
    expect(req._source).toEqual(['street_key']);
  });

  it('nearest-number requests look below and above the number on one street', () => {
    const [below, above] = nearestNumberRequests(q, streetKeyFilter('mekelweg'));
    expect(JSON.stringify(below!.query)).toContain('"lt":8');
    expect((below!.sort as unknown[])[0]).toEqual({ house_number: 'desc' });
    expect(JSON.stringify(above!.query)).toContain('"gt":8');
    expect((above!.sort as unknown[])[0]).toEqual({ house_number: 'asc' });
  });
});

describe('alternative readings of an abbreviation', () => {
  const q = parse({ streetname: 'Albert Cuypln', number: '3' });

  it('are parsed along with the primary key', () => {
    expect(q.streetKey).toBe('albertcuyplein');
    expect(q.streetKeyAlternatives).toEqual(['albertcuyplaan']);
    expect(parse({ streetname: 'Mekelweg', number: '8' }).streetKeyAlternatives).toEqual([]);
  });

  it('go into the same exact-tier request, the primary reading ranked first', () => {
    const fwd = exactForwardRequest(q);
    expect(fwd.query).toMatchObject({
      bool: {
        filter: [{ term: { house_number: 3 } }, anyLanguage('albertcuyplein', 'albertcuyplaan')],
        should: [
          { term: { street_key: { value: 'albertcuyplein', boost: 16 } } },
          { term: { other_street_keys: { value: 'albertcuyplein', boost: 16 } } },
          { term: { suffix_key: { value: '', boost: 4 } } },
        ],
      },
    });
    const look = exactLookupRequest(q);
    expect(JSON.stringify(look.query)).toContain('"terms":{"street_key":["albertcuyplein","albertcuyplaan"]}');
    expect(look._source).toContain('street_key');
    expect(exactStreetFilter(parse({ streetname: 'Mekelweg', number: '8' }))).toEqual(anyLanguage('mekelweg'));
  });
});

describe('forwardAmbiguity', () => {
  const hit = (city: string, street_key: string, score: number) => ({
    _index: 'addresses',
    _id: `${city}-${street_key}-${score}`,
    _source: { city, street_key },
    sort: [score, 'x'],
  });
  const bare = parse({ streetname: 'Kerkstraat', number: '1' });

  it('is ambiguous when an equally scored runner-up lies in another city and nothing was given to choose', () => {
    expect(forwardAmbiguity(bare, [hit('Balk', 'kerkstraat', 4), hit('Sneek', 'kerkstraat', 4)])).toBe(true);
  });

  it('is not ambiguous with a lower-scored runner-up, the same city, one hit, or a city/postcode/focus', () => {
    expect(forwardAmbiguity(bare, [hit('Balk', 'kerkstraat', 4), hit('Sneek', 'kerkstraat', 0)])).toBe(false);
    expect(forwardAmbiguity(bare, [hit('Balk', 'kerkstraat', 4), hit('Balk', 'kerkstraat', 4)])).toBe(false);
    expect(forwardAmbiguity(bare, [hit('Balk', 'kerkstraat', 4)])).toBe(false);
    const two = [hit('Balk', 'kerkstraat', 4), hit('Sneek', 'kerkstraat', 4)];
    expect(forwardAmbiguity(parse({ streetname: 'Kerkstraat', number: '1', city: 'Balk' }), two)).toBe(false);
    expect(forwardAmbiguity(parse({ streetname: 'Kerkstraat', number: '1', postcode: '8561AA' }), two)).toBe(false);
    expect(forwardAmbiguity(parse({ streetname: 'Kerkstraat', number: '1', lat: 52.9, lon: 5.6 }), two)).toBe(false);
  });
});

describe('describeMatch', () => {
  const doc = {
    id: 'x',
    streetname: 'Mekelweg',
    number: '8',
    suffix: '',
    city: 'Delft',
    postcode: '2628CD',
    location: { lat: 52, lon: 4.37 },
    country_id: '',
    province_id: '',
    municipality_id: '',
    city_id: '',
    suburb_id: '',
    building_id: '',
    street_key: 'mekelweg',
    suffix_key: '',
    postcode_key: '2628cd',
  };
  const match = { doc, street: 'exact', number: 'exact', reading: 'primary', ambiguous: false } as const;

  it.each([
    [
      { streetname: 'Mekelweg', number: '8' },
      match,
      1,
      { street: 'exact', number: 'exact', postcode: 'none', city: 'none' },
    ],
    [
      { streetname: 'mekelweg', number: '8' },
      match,
      0.97,
      { street: 'normalized', number: 'exact', postcode: 'none', city: 'none' },
    ],
    [
      { streetname: 'Mekelweg', number: '8b', postcode: '2628 CD' },
      match,
      0.9,
      { street: 'exact', number: 'other_suffix', postcode: 'exact', city: 'none' },
    ],
    [
      { streetname: 'Mekelweg', number: '8', postcode: '2611AA' },
      match,
      0.9,
      { street: 'exact', number: 'exact', postcode: 'ignored', city: 'none' },
    ],
    [
      { streetname: 'Mekelweg', number: '9' },
      { ...match, number: 'nearest' },
      0.5,
      { street: 'exact', number: 'nearest', postcode: 'none', city: 'none' },
    ],
    [
      { streetname: 'Mekelwef', number: '8' },
      { ...match, street: 'fuzzy' },
      0.838,
      { street: 'fuzzy', number: 'exact', postcode: 'none', city: 'none' },
    ],
    [
      { streetname: 'Mekelweg', number: '8' },
      { ...match, ambiguous: true },
      0.7,
      { street: 'exact', number: 'exact', postcode: 'none', city: 'none' },
    ],
    [
      { postcode: '2628CD', number: '8' },
      match,
      1,
      { street: 'none', number: 'exact', postcode: 'exact', city: 'none' },
    ],
  ] as const)('%j -> %s', (body, m, confidence, codes) => {
    expect(describeMatch(parse(body), m)).toEqual({ confidence, match: codes });
  });

  it('grades a fuzzy street by the share of letters that changed', () => {
    expect(fuzzyStreetConfidence('mekelwef', 'mekelweg')).toBeCloseTo(0.9 - 0.5 / 8);
    expect(fuzzyStreetConfidence('rotterdamsewge', 'rotterdamseweg')).toBeGreaterThan(
      fuzzyStreetConfidence('mekelwef', 'mekelweg'),
    );
    expect(fuzzyStreetConfidence('dbiderij', 'debinderij')).toBeCloseTo(0.8);
    expect(fuzzyStreetConfidence('jo', 'jol')).toBeCloseTo(0.9 - 0.5 / 3);
    expect(fuzzyStreetConfidence('abc', 'xyz')).toBe(0.6);
  });

  it('no fuzzy-tier answer outranks the ceiling that lets free text skip the fuzzy tiers', () => {
    // Free text skips the other readings' fuzzy tiers once an answer outranks them: that must hold for the best
    // answer the fuzzy tiers can give, a look-alike street at no distance at all.
    expect(outranksFuzzyTier({ confidence: fuzzyStreetConfidence('mekelweg', 'mekelweg') })).toBe(false);
    const q = parse({ streetname: 'Mekelweg', number: '8' });
    expect(outranksFuzzyTier(describeMatch(q, { ...match, street: 'fuzzy' }))).toBe(false);
    expect(outranksFuzzyTier(describeMatch(q, { ...match, number: 'nearest' }))).toBe(false);
    expect(outranksFuzzyTier(describeMatch(q, match))).toBe(true);
    // The exact street with another suffix of the number (0.9) is no lower than any look-alike street can be.
    const ranged = parse({ streetname: 'Mekelweg', number: '8 - 10' });
    expect(describeMatch(ranged, match).confidence).toBe(0.9);
    expect(outranksFuzzyTier(describeMatch(ranged, match))).toBe(true);
    expect(outranksFuzzyTier(describeMatch(ranged, { ...match, street: 'fuzzy' }))).toBe(false);
  });
});
