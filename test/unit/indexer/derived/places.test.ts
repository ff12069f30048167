import { describe, expect, it } from 'vitest';
import { streetId } from '../../../../indexer/records/ids.js';
import { PlaceAccumulator } from '../../../../indexer/derived/placeAccumulator.js';
import { buildPlaces, type PlaceArea, type PlaceStreet } from '../../../../indexer/derived/placeDocuments.js';
import { StreetAccumulator } from '../../../../indexer/derived/streetDocuments.js';
import { emptyPlaces, verifyPlaces } from '../../../../indexer/execution/summary.js';
import type { PlaceDoc } from '../../../../core/elasticsearch/documents.js';

const box = { min_lon: 4, min_lat: 51, max_lon: 5, max_lat: 53 };
const noParents = { country_id: '', province_id: '', municipality_id: '', city_id: '' };
const area = (id: string, level: PlaceArea['level'], name: string, parents = noParents, extra = {}): PlaceArea => ({
  id,
  level,
  name,
  localIdentifier: id.toUpperCase(),
  countryCode: level === 'countries' ? 'NL' : '',
  centroid: { lat: 52, lon: 4.36 },
  bbox: box,
  parents,
  ...extra,
});
const nl = area('nl', 'countries', 'Netherlands');
const zh = area('pv28', 'provinces', 'Zuid-Holland', { ...noParents, country_id: 'nl' });
const chain = { country_id: 'nl', province_id: 'pv28', municipality_id: 'gm0503', city_id: 'delft' };
const gm = area('gm0503', 'municipalities', 'Delft', { ...chain, municipality_id: '', city_id: '' });
const delft = area('delft', 'cities', 'Delft', { ...chain, city_id: '' });
const brussel = area('bru', 'cities', 'Brussel', noParents, { names: { nl: 'Brussel', fr: 'Bruxelles' } });
const areas = [nl, zh, gm, delft, brussel];

const address = (street: string, postcode: string, lat: number, lon: number) => ({
  street_key: street.toLowerCase(),
  city: 'Delft',
  city_key: 'delft',
  postcode,
  postcode_key: postcode.toLowerCase(),
  location: { lat, lon },
  ...chain,
  suburb_id: 'wippolder',
});

function build(kept?: Parameters<typeof buildPlaces>[0]['kept']): PlaceDoc[] {
  const acc = new PlaceAccumulator();
  acc.add(address('Mekelweg', '2628CD', 52.0, 4.37));
  acc.add(address('Mekelweg', '2628CD', 52.002, 4.374));
  acc.add(address('Mekelweg', '2628CC', 51.998, 4.38));
  const streets = new StreetAccumulator();
  for (const [lat, lon] of [
    [52.0, 4.37],
    [52.002, 4.374],
    [51.998, 4.38],
  ] as const) {
    streets.add({ streetname: 'Mekelweg', ...address('Mekelweg', '', lat, lon) });
  }
  const street: PlaceStreet = [...streets.documents()][0] as PlaceStreet;
  const byId = new Map(areas.map((a) => [a.id, a]));
  return [...buildPlaces({ areas, streets: [street], accumulator: acc, area: (id) => byId.get(id), kept })];
}

describe('buildPlaces', () => {
  const docs = build();
  const find = (type: string, name: string) => docs.find((d) => d.type === type && d.name === name) as PlaceDoc;

  it('makes one place per area with its addresses, parents, ancestors and country', () => {
    expect(find('city', 'Delft')).toMatchObject({
      id: 'delft',
      local_identifier: 'DELFT',
      address_count: 3,
      name_keys: ['delft'],
      parent_names: { city: '', municipality: 'Delft', province: 'Zuid-Holland', country: 'Netherlands' },
      ancestor_ids: ['nl', 'pv28', 'gm0503', 'delft'],
      country: 'NL',
      location: { lat: 52, lon: 4.36 },
      bbox: box,
    });
    expect(find('city', 'Delft').qualifier_keys).toEqual(['netherlands', 'zuid holland', 'delft']);
    expect(find('country', 'Netherlands').address_count).toBe(3);
  });

  it('indexes a key for every language of an area that has several names', () => {
    expect(find('city', 'Brussel')).toMatchObject({
      names: { nl: 'Brussel', fr: 'Bruxelles' },
      name_keys: ['brussel', 'bruxelles'],
      primary_name_keys: ['brussel'],
    });
  });

  it("leaves out the street and postcode places an update keeps, told each one's id, postcode and ancestors first", () => {
    const asked: string[] = [];
    const kept = build((place) => {
      asked.push(`${place.type} ${place.id} ${place.postcode} ${place.ancestor_ids.length}`);
      return place.type === 'street' || place.postcode === '2628CD';
    });
    expect(kept.map((d) => d.id)).toEqual(
      docs.filter((d) => d.type !== 'street' && d.id !== 'postcode:NL:2628CD').map((d) => d.id),
    );
    expect(kept.filter((d) => d.type !== 'street' && d.type !== 'postcode')).toEqual(
      docs.filter((d) => d.type !== 'street' && d.type !== 'postcode'),
    );
    expect(asked).toContain(
      `street ${streetId('mekelweg', 'delft')}  ${docs.find((d) => d.type === 'street')!.ancestor_ids.length}`,
    );
    expect(asked).toContain('postcode postcode:NL:2628CD 2628CD 4');
  });

  it("names a street in every language of the streets index's document (Rue Neuve = Nieuwstraat)", () => {
    const acc = new PlaceAccumulator();
    const streets = new StreetAccumulator();
    streets.add({
      streetname: 'Nieuwstraat',
      ...address('Nieuwstraat', '1000', 50.85, 4.35),
      street_names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
      other_street_keys: ['rueneuve'],
      other_street_text: ['rue neuve'],
    });
    const byId = new Map(areas.map((a) => [a.id, a]));
    const [street] = [
      ...buildPlaces({ areas: [], streets: [...streets.documents()], accumulator: acc, area: (id) => byId.get(id) }),
    ];
    expect(street).toMatchObject({
      type: 'street',
      names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
      name_keys: expect.arrayContaining(['nieuwstraat', 'rue neuve']),
    });
  });

  it('gives a street the extent of its addresses, its most common postcode and its city as qualifiers', () => {
    const s = find('street', 'Mekelweg');
    expect(s).toMatchObject({ id: streetId('mekelweg', 'delft'), city: 'Delft', postcode: '2628CD', address_count: 3 });
    expect(s.bbox).toEqual({ min_lon: 4.37, min_lat: 51.998, max_lon: 4.38, max_lat: 52.002 });
    expect(s.qualifier_keys).toEqual(expect.arrayContaining(['delft', 'zuid holland', '2628cd', '2628']));
  });

  it('makes Dutch 6-character postcodes and their 4-digit areas, each with its city, extent and a real address', () => {
    expect(find('postcode', '2628CD')).toMatchObject({
      id: 'postcode:NL:2628CD',
      city: 'Delft',
      postcode: '2628CD',
      name_keys: ['2628cd'],
      address_count: 2,
      country: 'NL',
    });
    const area4 = find('postcode', '2628');
    expect(area4).toMatchObject({ address_count: 3, name_keys: ['2628'] });
    expect(area4.bbox).toEqual({ min_lon: 4.37, min_lat: 51.998, max_lon: 4.38, max_lat: 52.002 });
    expect([52.0, 52.002, 51.998]).toContain(area4.location.lat);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
  });
});

describe('verifyPlaces', () => {
  it('fails a run whose places index lost or never got documents', () => {
    expect(verifyPlaces({ ...emptyPlaces(), built: 3, indexed: 3, count: 3 }, 5)).toEqual([]);
    expect(verifyPlaces({ ...emptyPlaces(), built: 3, indexed: 3, count: 2 }, 5)).toHaveLength(1);
    expect(verifyPlaces(emptyPlaces(), 5)).toEqual(['places: none built']);
  });
});

describe('postcodes across a folded derived city', () => {
  it('are one place per country code, even when some addresses had no country until their city was folded', () => {
    const acc = new PlaceAccumulator();
    const withChain = (lat: number) => ({ ...address('Mekelweg', '2628CD', lat, 4.37) });
    acc.add(withChain(52.0));
    acc.add(withChain(52.001));
    // An address outside every country polygon, in a derived city later folded into Delft.
    acc.add({ ...withChain(52.01), country_id: '', province_id: '', municipality_id: '', city_id: 'old' });
    acc.applyRemap(new Map([['old', chain]]));
    const byId = new Map(areas.map((a) => [a.id, a]));
    const docs = [...buildPlaces({ areas: [], streets: [], accumulator: acc, area: (id) => byId.get(id) })];
    const ids = docs.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(docs.find((d) => d.id === 'postcode:NL:2628CD')).toMatchObject({ address_count: 3 });
    expect(docs.find((d) => d.id === 'postcode:NL:2628CD')?.bbox.max_lat).toBe(52.01);
  });
});

describe('buildPlaces: places that are points (OpenStreetMap place nodes)', () => {
  it('makes a place of its type under its parents, at its point, after the areas', () => {
    const byId = new Map(areas.map((a) => [a.id, a]));
    const docs = [
      ...buildPlaces({
        areas,
        points: [
          {
            id: 'node-1',
            type: 'suburb',
            name: 'TU-wijk',
            names: {},
            location: { lat: 52.0, lon: 4.37 },
            parents: chain,
          },
        ],
        streets: [],
        accumulator: new PlaceAccumulator(),
        area: (id) => byId.get(id),
      }),
    ];
    expect(docs.map((d) => d.type)).toEqual(['country', 'province', 'municipality', 'city', 'city', 'suburb']);
    expect(docs.at(-1)).toMatchObject({
      id: 'node-1',
      name: 'TU-wijk',
      name_keys: expect.arrayContaining(['tu wijk']),
      parent_names: { city: 'Delft', municipality: 'Delft', province: 'Zuid-Holland', country: 'Netherlands' },
      ancestor_ids: ['nl', 'pv28', 'gm0503', 'delft'],
      country: 'NL',
      location: { lat: 52.0, lon: 4.37 },
      bbox: { min_lon: 4.37, min_lat: 52.0, max_lon: 4.37, max_lat: 52.0 },
      address_count: 0,
    });
  });
});
