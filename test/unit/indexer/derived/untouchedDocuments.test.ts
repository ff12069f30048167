/** Which streets and places an update keeps as the live generation holds them (indexer/derived/untouchedDocuments.ts). */
import { describe, expect, it } from 'vitest';
import { UntouchedDocuments } from '../../../../indexer/derived/untouchedDocuments.js';

const street = (id: string, street_key: string, city_key: string, city_id = 'c1') => ({
  id,
  street_key,
  city_key,
  city_id,
});
const place = (id: string, type: 'street' | 'postcode' | 'city', postcode = '', ancestor_ids = ['nl', 'c1']) => ({
  id,
  type,
  postcode,
  ancestor_ids,
});

describe('UntouchedDocuments', () => {
  it('keeps a street and its place that no changed address reached; not the street one did', () => {
    const u = new UntouchedDocuments();
    u.touch({ street_key: 'markt', city_key: 'delft', postcode_key: '2611gv' });
    expect(u.street(street('s1', 'markt', 'delft'))).toBe(false);
    expect(u.street(street('s2', 'markt', 'den haag'))).toBe(true);
    expect(u.street(street('s3', 'oude delft', 'delft'))).toBe(true);
    expect(u.place(place('s1', 'street'))).toBe(false);
    expect(u.place(place('s2', 'street'))).toBe(true);
    // A street never asked about (not built) has no place kept.
    expect(u.place(place('s9', 'street'))).toBe(false);
  });

  it("a changed address reaches its postcode and the postcode's area; areas' places are always rebuilt", () => {
    const u = new UntouchedDocuments();
    u.touch({ street_key: 'markt', city_key: 'delft', postcode_key: '2611gv' });
    expect(u.place(place('p1', 'postcode', '2611GV'))).toBe(false);
    expect(u.place(place('p2', 'postcode', '2611'))).toBe(false);
    expect(u.place(place('p3', 'postcode', '2612'))).toBe(true);
    expect(u.place(place('c1', 'city'))).toBe(false);
  });

  it('rebuilds what lies in a refolded or renamed derived city', () => {
    const u = new UntouchedDocuments();
    u.refold([['g1', { country_id: 'nl', province_id: 'p', municipality_id: 'm', city_id: 'c2' }]]);
    u.rename(['c3']);
    expect(u.street(street('s1', 'markt', 'x', 'g1'))).toBe(false);
    expect(u.street(street('s2', 'markt', 'y', 'c2'))).toBe(false);
    expect(u.street(street('s3', 'markt', 'z', 'c3'))).toBe(true);
    // The street itself shows no city name; its place does.
    expect(u.place(place('s3', 'street', '', ['nl', 'c3']))).toBe(false);
    expect(u.place(place('p1', 'postcode', '1050', ['be', 'c2']))).toBe(false);
    expect(u.place(place('p2', 'postcode', '1050', ['be', 'c4']))).toBe(true);
  });
});
