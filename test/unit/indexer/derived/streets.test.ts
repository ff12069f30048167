import { describe, expect, it } from 'vitest';
import { streetId } from '../../../../indexer/records/ids.js';
import {
  nearestTo,
  STREET_SAMPLE_POINTS,
  StreetAccumulator,
  streetWordTokens,
} from '../../../../indexer/derived/streetDocuments.js';
import { emptyLevel, emptyStreets, verifyStreets } from '../../../../indexer/execution/summary.js';

const parents = { country_id: 'nl', province_id: 'pv28', municipality_id: 'gm0503', city_id: 'delft' };
const address = (streetname: string, city: string, lat: number, lon: number, extra: Partial<typeof parents> = {}) => ({
  streetname,
  street_key: streetname.toLowerCase().replace(/[^a-z]/g, ''),
  city,
  city_key: city.toLowerCase(),
  location: { lat, lon },
  ...parents,
  ...extra,
});

describe('streetWordTokens', () => {
  it('holds the normalised name and every tail of its words', () => {
    expect(streetWordTokens('Van der Waalsweg')).toEqual(['van der waalsweg', 'der waalsweg', 'waalsweg']);
    expect(streetWordTokens('Mekelweg')).toEqual(['mekelweg']);
    expect(streetWordTokens('')).toEqual([]);
  });

  it('expands abbreviations the way street_text does', () => {
    expect(streetWordTokens('Prof. Krausstraat')).toEqual(['professor krausstraat', 'krausstraat']);
  });
});

describe('StreetAccumulator.addWay (an OpenStreetMap street)', () => {
  const way = (streetname: string, city: string, points: { lat: number; lon: number }[], extra = {}) => ({
    streetname,
    street_key: streetname.toLowerCase().replace(/[^a-z]/g, ''),
    city,
    city_key: city.toLowerCase(),
    parents: { ...parents, ...extra },
    points,
  });

  it("joins the addresses' street of its name in its locality, whatever city they were written with", () => {
    const acc = new StreetAccumulator();
    acc.add(address('Mekelweg', '', 52.0, 4.37));
    expect(acc.addWay(way('Mekelweg', 'Delft', [{ lat: 52.01, lon: 4.38 }]))).toEqual({ cityKey: '', joined: true });
    const [mekelweg, ...others] = [...acc.documents()];
    expect(others).toEqual([]);
    // Where its addresses are: the way adds no point to a street that has addresses.
    expect(mekelweg).toMatchObject({ address_count: 1, location: { lat: 52.0, lon: 4.37 } });
    expect(mekelweg?.points).toEqual([{ lat: 52.0, lon: 4.37 }]);
  });

  it('makes a street with no address along its ways, one per name and locality', () => {
    const acc = new StreetAccumulator();
    acc.add(address('Mekelweg', 'Delft', 52.0, 4.37));
    const first = [
      { lat: 52.0, lon: 4.36 },
      { lat: 52.001, lon: 4.361 },
    ];
    expect(acc.addWay(way('Schoemakerstraat', 'Delft', first))).toEqual({ cityKey: 'delft', joined: false });
    acc.addWay(way('Schoemakerstraat', 'Delft', [{ lat: 52.01, lon: 4.362 }]));
    // Of the same name in another municipality: another street.
    acc.addWay(way('Schoemakerstraat', 'Rijswijk', [{ lat: 52.03, lon: 4.32 }], { city_id: 'rijswijk' }));
    const docs = [...acc.documents()];
    expect(docs.map((d) => [d.streetname, d.city, d.address_count])).toEqual([
      ['Mekelweg', 'Delft', 1],
      ['Schoemakerstraat', 'Delft', 0],
      ['Schoemakerstraat', 'Rijswijk', 0],
    ]);
    expect(docs[1]?.points).toHaveLength(3);
    expect(docs[1]?.location).toEqual({ lat: 52.001, lon: 4.361 });
    expect(docs[1]).toMatchObject({ id: streetId('schoemakerstraat', 'delft'), ...parents });
    expect(acc.addresses).toBe(1);
  });

  it('keeps at most STREET_SAMPLE_POINTS points of a long street', () => {
    const acc = new StreetAccumulator();
    for (let i = 0; i < 3; i++) {
      acc.addWay(
        way(
          'Lange Weg',
          'Delft',
          Array.from({ length: 10 }, (_, j) => ({ lat: 52 + i * 0.01, lon: j })),
        ),
      );
    }
    expect([...acc.documents()][0]?.points).toHaveLength(STREET_SAMPLE_POINTS);
  });
});

describe('StreetAccumulator', () => {
  it('makes one document per street key and city key, with its size, spelling and parents', () => {
    const acc = new StreetAccumulator();
    acc.add(address('Mekelweg', 'Delft', 52.0, 4.37));
    acc.add(address('MEKELWEG', 'Delft', 52.001, 4.371));
    acc.add(address('Mekelweg', 'Delft', 52.002, 4.372));
    acc.add(address('Mekelweg', 'Rijswijk', 52.03, 4.32, { city_id: 'rijswijk', municipality_id: 'gm0603' }));
    expect(acc.size).toBe(2);
    expect(acc.addresses).toBe(4);
    const [delft, rijswijk] = [...acc.documents()];
    expect(delft).toMatchObject({
      id: streetId('mekelweg', 'delft'),
      source_key: 'streets:mekelweg|delft',
      streetname: 'Mekelweg',
      street_key: 'mekelweg',
      street_words: ['mekelweg'],
      city: 'Delft',
      city_key: 'delft',
      address_count: 3,
      ...parents,
    });
    // The address nearest the mean point.
    expect(delft?.location).toEqual({ lat: 52.001, lon: 4.371 });
    expect(delft?.points).toHaveLength(3);
    expect(rijswijk).toMatchObject({ address_count: 1, city_id: 'rijswijk', municipality_id: 'gm0603' });
  });

  it('keeps a bounded, deterministic sample of points, and the union of the spellings’ words', () => {
    const run = () => {
      const acc = new StreetAccumulator();
      for (let i = 0; i < 1000; i++) {
        acc.add(address(i % 3 ? 'Van der Waalsweg' : 'Vanderwaalsweg', 'Delft', 52 + i / 1e5, 4.37));
      }
      return [...acc.documents()];
    };
    const [street] = run();
    expect(street?.address_count).toBe(1000);
    expect(street?.streetname).toBe('Van der Waalsweg');
    expect(street?.points).toHaveLength(STREET_SAMPLE_POINTS);
    expect(street?.street_words.sort()).toEqual(['der waalsweg', 'van der waalsweg', 'vanderwaalsweg', 'waalsweg']);
    expect(run()).toEqual(run());
  });

  it('moves streets of folded derived cities with their addresses', () => {
    const acc = new StreetAccumulator();
    acc.add(address('Dorpsstraat', 'Oost', 52, 5, { city_id: 'old' }));
    const moved = { ...parents, city_id: 'owner', municipality_id: 'gm9999' };
    expect([...acc.documents(new Map([['old', moved]]))][0]).toMatchObject({
      city_id: 'owner',
      municipality_id: 'gm9999',
    });
  });

  it('makes the same documents each time they are read: the streets index and the places read one list', () => {
    const acc = new StreetAccumulator();
    for (let n = 1; n <= 40; n++)
      acc.add(address('Dorpsstraat', 'Oost', 52 + n / 1e4, 5 + n / 1e4, { city_id: 'old' }));
    acc.add(address('Kerkweg', 'Oost', 52.1, 5.1, { city_id: 'c2' }));
    const moved = { ...parents, city_id: 'owner', municipality_id: 'gm9999' };
    const reader = acc.reader(new Map([['old', moved]]));
    const first = [...reader];
    expect(first.map((d) => d.streetname)).toEqual(['Dorpsstraat', 'Kerkweg']);
    expect([...reader]).toEqual(first);
  });

  it('nearestTo picks the closest point', () => {
    const points = [
      { lat: 52, lon: 4 },
      { lat: 52.1, lon: 4.1 },
    ];
    expect(nearestTo({ lat: 52.09, lon: 4.09 }, points)).toEqual(points[1]);
  });
});

describe('verifyStreets', () => {
  const addresses = { ...emptyLevel(), read: 10, indexed: 9, rejected: 1, rejectReasons: { elasticsearch_error: 1 } };
  it('passes when every address sent is counted in exactly one indexed street', () => {
    const s = { ...emptyStreets(), built: 3, indexed: 3, count: 3, addresses: 10, addressCountSum: 10 };
    expect(verifyStreets(s, addresses)).toEqual([]);
  });
  it('names what does not reconcile', () => {
    const s = { ...emptyStreets(), built: 3, indexed: 2, count: 2, addresses: 9, addressCountSum: 8 };
    expect(verifyStreets(s, addresses)).toEqual([
      'streets: indexed 2 != built 3',
      'streets: _count 2 != built 3',
      'streets: sum of address_count 8 != addresses counted 9',
      'streets: addresses counted 9 != addresses sent 10',
    ]);
  });
});
