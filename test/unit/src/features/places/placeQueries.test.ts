import { describe, expect, it } from 'vitest';
import { placeLabel, placeResult } from '../../../../../src/features/places/placeRecords.js';
import {
  matchOfScore,
  type PlaceHit,
  placeSearchRequest,
  readPlaceQuery,
  streetOfAddressReading,
  TIER_SCORES,
} from '../../../../../src/features/places/placeQueries.js';
import { placeNameKeys } from '../../../../../core/text/placeKeys.js';

const readings = (text: string) => readPlaceQuery(text).map((r) => [r.keys[0], r.qualifierKeys[0] ?? '']);

describe('placeNameKeys', () => {
  it('normalises names as the rest of the service does, with the street reading and the postcode key', () => {
    expect(placeNameKeys("'s-Gravenhage")).toEqual(['s gravenhage']);
    expect(placeNameKeys('Zuid-Holland')).toEqual(['zuid holland']);
    expect(placeNameKeys('Prof. Krausstr')).toEqual(['prof krausstr', 'professor krausstraat']);
    expect(placeNameKeys('2628 CD')).toEqual(['2628 cd', '2628cd']);
    expect(placeNameKeys('2628CD')).toEqual(['2628cd']);
    expect(placeNameKeys("'")).toEqual([]);
  });
});

describe('readPlaceQuery', () => {
  it('reads the whole text as one name first', () => {
    expect(readings('Delft')).toEqual([['delft', '']]);
    expect(readings('ZUID-HOLLAND')[0]).toEqual(['zuid holland', '']);
  });

  it('reads street + city without a number, in either order, with or without a comma', () => {
    expect(readings('Mekelweg Delft')).toContainEqual(['mekelweg', 'delft']);
    expect(readings('Vismarkt Groningen')).toContainEqual(['vismarkt', 'groningen']);
    expect(readings('Delft Mekelweg')).toContainEqual(['mekelweg', 'delft']);
    expect(readings('Mekelweg, Delft')).toContainEqual(['mekelweg', 'delft']);
    expect(readings('Delft, Mekelweg')).toContainEqual(['mekelweg', 'delft']);
  });

  it('lets a qualifier have up to four words', () => {
    expect(readings('Markt Bergen op Zoom')).toContainEqual(['markt', 'bergen op zoom']);
    expect(readings('rue du meridien saint-josse-ten-noode')).toContainEqual([
      'rue du meridien',
      'saint josse ten noode',
    ]);
    expect(readings('Van der Waalsweg Delft')).toContainEqual(['van der waalsweg', 'delft']);
  });

  it('reads a spaced postcode as one key', () => {
    expect(readPlaceQuery('2628 CD')[0]?.keys).toContain('2628cd');
    expect(readPlaceQuery('2628 cd Delft').map((r) => r.keys)).toContainEqual(['2628 cd', '2628cd']);
  });

  it('has nothing to read in punctuation', () => {
    expect(readPlaceQuery("'")).toEqual([]);
    expect(readPlaceQuery(' - ')).toEqual([]);
  });
});

describe('streetOfAddressReading', () => {
  it("reads an address's street as its name qualified by its city", () => {
    expect(streetOfAddressReading('Mekelweg', 'Delft')).toEqual([{ keys: ['mekelweg'], qualifierKeys: ['delft'] }]);
    expect(streetOfAddressReading('Mekelweg', '')).toEqual([]);
  });
});

describe('placeSearchRequest', () => {
  const body = (text: string, extra: object = {}, typos = false) =>
    JSON.stringify(placeSearchRequest({ text, size: 5, ...extra }, readPlaceQuery(text), typos));

  it('searches exact and prefix names first, typos only in the second round', () => {
    expect(body('Delfd')).toContain('"prefix"');
    expect(body('Delfd')).not.toContain('"fuzzy"');
    expect(body('Delfd', {}, true)).toContain('"fuzziness":"AUTO:4,8"');
  });

  it('gives a key with a digit (a reading of an address) one typo at most, a name of letters two', () => {
    const fuzziness = (text: string) =>
      [...body(text, {}, true).matchAll(/"value":"([^"]+)","fuzziness":("[^"]+"|\d)/g)].map((m) => [m[1], m[2]]);
    expect(fuzziness('Mekelweg 8 Delft')).toContainEqual(['mekelweg 8', '1']);
    expect(fuzziness('Mekelweg 8 Delft')).toContainEqual(['delft', '"AUTO:4,8"']);
    expect(fuzziness('Mekelweg 8 Delft')).toContainEqual(['8 delft', '1']);
    expect(fuzziness('2e Exloermond')).toContainEqual(['2e exloermond', '1']);
    expect(fuzziness('Alphen aan den Rijn')).toContainEqual(['alphen aan den rijn', '"AUTO:4,8"']);
  });

  it("adds the place's own name to the exact tier (an exonym alone ranks lower)", () => {
    expect(body('Limburg')).toContain('{"terms":{"primary_name_keys":["limburg"]}},"boost":203}');
    expect(body('Limburg')).toContain('{"terms":{"name_keys":["limburg"]}},"boost":200}');
  });

  it('never reads a postcode or a short word through a typo', () => {
    expect(placeSearchRequest({ text: '2628CD', size: 5 }, readPlaceQuery('2628CD'), true)).toBeUndefined();
    expect(placeSearchRequest({ text: 'Ede', size: 5 }, readPlaceQuery('Ede'), true)).toBeUndefined();
  });

  it('filters by layers, country, bbox and ancestor', () => {
    const b = body('Delft', { layers: ['city', 'street'], country: 'NL', bbox: [4, 51, 5, 52], within: 'gm-id' });
    expect(b).toContain('{"terms":{"type":["city","street"]}}');
    expect(b).toContain('{"term":{"country":"NL"}}');
    expect(b).toContain('{"term":{"ancestor_ids":"gm-id"}}');
    expect(b).toContain('"top_left":{"lat":52,"lon":4},"bottom_right":{"lat":51,"lon":5}');
    expect(body('Delft')).not.toContain('ancestor_ids');
  });

  it('prefers nearby places only when given a focus', () => {
    expect(body('Delft', { focus: { lat: 52, lon: 4.3 } })).toContain('"distance_feature"');
    expect(body('Delft')).not.toContain('distance_feature');
  });

  it('is nothing to search for punctuation', () => {
    expect(placeSearchRequest({ text: '-', size: 5 }, readPlaceQuery('-'), false)).toBeUndefined();
  });
});

describe('matchOfScore', () => {
  it('reads the tier from the score: what ranks within a tier adds less than a tier gap', () => {
    expect(matchOfScore(TIER_SCORES.exact + 30)).toBe('exact');
    expect(matchOfScore(TIER_SCORES.prefix + 34)).toBe('prefix');
    expect(matchOfScore(TIER_SCORES.typo + 2)).toBe('typo');
  });
});

describe('place results', () => {
  const parents = { city: 'Delft', municipality: 'Delft', province: 'Zuid-Holland', country: 'Netherlands' };
  const hit: PlaceHit = {
    id: 'x',
    type: 'city',
    name: 'Delft',
    names: {},
    local_identifier: '2138',
    parent_names: { ...parents, city: '' },
    country: 'NL',
    streetname: '',
    city: '',
    postcode: '',
    location: { lat: 52, lon: 4.36 },
    bbox: { min_lon: 4.3, min_lat: 51.9, max_lon: 4.4, max_lat: 52.1 },
    address_count: 8917,
  };

  it('labels each type as people read it', () => {
    expect(placeLabel(hit)).toBe('Delft, Zuid-Holland');
    expect(placeLabel({ ...hit, type: 'street', name: 'Mekelweg', city: 'Delft', parent_names: parents })).toBe(
      'Mekelweg, Delft',
    );
    expect(placeLabel({ ...hit, type: 'postcode', name: '2628CD', city: 'Delft' })).toBe('2628CD Delft');
    expect(placeLabel({ ...hit, type: 'suburb', name: 'Wippolder', parent_names: parents })).toBe('Wippolder, Delft');
    expect(placeLabel({ ...hit, type: 'province', name: 'Zuid-Holland' })).toBe('Zuid-Holland, Netherlands');
    expect(placeLabel({ ...hit, type: 'country', name: 'Netherlands' })).toBe('Netherlands');
  });

  it('answers the bbox as [minLon, minLat, maxLon, maxLat] and a confidence per tier', () => {
    const r = placeResult(hit, 'exact');
    expect(r).toMatchObject({ bbox: [4.3, 51.9, 4.4, 52.1], longitude: 4.36, latitude: 52, confidence: 1 });
    expect(placeResult(hit, 'typo').confidence).toBeLessThan(placeResult(hit, 'prefix').confidence);
  });
});
