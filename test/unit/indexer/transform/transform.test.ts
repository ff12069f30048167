import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { emptyAllParents } from '../../../../indexer/records/records.js';
import { stableId } from '../../../../indexer/records/ids.js';
import { addressFromRecord } from '../../../../indexer/transform/address.js';
import { areaFromFeature, mergeAreas, toAreaDoc } from '../../../../indexer/transform/area.js';
import { buildingFromFeature, toBuildingDoc } from '../../../../indexer/transform/building.js';
import { boxPolygon } from '../../../support/geometry.js';

const split = {
  street: 'street',
  number: 'housenumber',
  letter: 'housenumber_letter',
  addition: 'housenumber_addition',
  postcode: 'postcode',
  city: 'city',
  lon: 'lon',
  lat: 'lat',
};

const row = (over: Record<string, string> = {}) => ({
  street: 'Rotterdamseweg',
  housenumber: '139',
  housenumber_letter: 'A',
  housenumber_addition: '1',
  postcode: '2628AL',
  city: 'Delft',
  lon: '4.3687682',
  lat: '52.0009181',
  ...over,
});

function rejected(props: Record<string, string>, fields: typeof split | Record<string, string> = split) {
  const outcome = addressFromRecord(props, undefined, fields as typeof split);
  if (outcome.ok) throw new Error('expected a reject');
  return outcome.reason;
}

describe('addressFromRecord', () => {
  it('builds the full document with normalised fields and blank parents', () => {
    const outcome = addressFromRecord(row(), undefined, split);
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.value).toMatchObject({
      streetname: 'Rotterdamseweg',
      street_key: 'rotterdamseweg',
      street_text: 'rotterdamseweg',
      house_number: 139,
      number: '139',
      letter: 'a',
      addition: '1',
      suffix_key: 'a1',
      suffix: 'A-1',
      postcode: '2628AL',
      postcode_key: '2628al',
      city: 'Delft',
      city_key: 'delft',
      location: { lon: 4.3687682, lat: 52.0009181 },
      building_id: '',
      country_id: '',
      source_key: 'addresses:rotterdamseweg|139|a1|2628al|delft',
    });
    expect(outcome.value.id).toBe(stableId('addresses', 'rotterdamseweg|139|a1|2628al|delft'));
  });

  it('gives the same id to the same address however it is spelled', () => {
    const a = addressFromRecord(row({ postcode: '2628 al', housenumber_letter: 'a', city: 'DELFT' }), undefined, split);
    const b = addressFromRecord(row(), undefined, split);
    expect(a.ok && b.ok && a.value.id === b.value.id).toBe(true);
    const other = addressFromRecord(row({ housenumber_addition: '2' }), undefined, split);
    expect(other.ok && b.ok && other.value.id !== b.value.id).toBe(true);
  });

  it('parses a raw house number when letter and addition are not mapped', () => {
    const { letter: _l, addition: _a, ...rawFields } = split;
    const outcome = addressFromRecord(row({ housenumber: '139A-1' }), undefined, rawFields);
    expect(outcome.ok && outcome.value.suffix_key).toBe('a1');
  });

  it('rejects with the right reason', () => {
    expect(rejected(row({ lon: '' }))).toBe('missing_coordinate');
    expect(rejected(row({ lat: 'north' }))).toBe('coordinate_out_of_range');
    expect(rejected(row({ lat: '95' }))).toBe('coordinate_out_of_range');
    expect(rejected(row({ lon: '-181' }))).toBe('coordinate_out_of_range');
    expect(rejected(row({ street: '  ' }))).toBe('missing_street');
    expect(rejected(row({ housenumber: 'abc', housenumber_letter: '', housenumber_addition: '' }))).toBe(
      'unparsable_house_number',
    );
    expect(rejected(row({ housenumber: '' }))).toBe('unparsable_house_number');
  });

  it('takes GeoJSON point geometry when no lon/lat columns are mapped', () => {
    const { lon: _x, lat: _y, ...pointFields } = split;
    const ok = addressFromRecord(row(), { type: 'Point', coordinates: [4.1, 52.1] }, pointFields);
    expect(ok.ok && ok.value.location).toEqual({ lon: 4.1, lat: 52.1 });
    const line = addressFromRecord(
      row(),
      {
        type: 'LineString',
        coordinates: [
          [4, 52],
          [5, 53],
        ],
      },
      pointFields,
    );
    expect(!line.ok && line.reason).toBe('invalid_geometry');
  });
});

const square = boxPolygon(4, 52, 5, 53);
const islet: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [6, 50],
      [6.1, 50],
      [6.1, 50.1],
      [6, 50],
    ],
  ],
};
const areaFields = {
  key: { first: ['iso_a3', 'name'] },
  name: 'name',
  localIdentifier: 'iso_a2',
  countryCode: 'iso_a2',
  countryCode3: 'iso_a3',
};

describe('area transform', () => {
  it('keys by the source key and falls back as configured', () => {
    const nl = areaFromFeature('countries', { name: 'Netherlands', iso_a2: 'nl', iso_a3: 'NLD' }, square, areaFields);
    if (!nl.ok) throw new Error(nl.detail);
    expect(nl.value).toMatchObject({
      key: 'NLD',
      sourceKey: 'countries:NLD',
      countryCode: 'NL',
      localIdentifier: 'nl',
    });
    const kosovo = areaFromFeature('countries', { name: 'Kosovo', iso_a2: null, iso_a3: null }, square, areaFields);
    expect(kosovo.ok && kosovo.value.key).toBe('Kosovo');
    expect(kosovo.ok && kosovo.value.localIdentifier).toBe('');
  });

  it('rejects missing keys, names and broken geometry', () => {
    const noKey = areaFromFeature('countries', {}, square, areaFields);
    expect(!noKey.ok && noKey.reason).toBe('missing_key');
    const noName = areaFromFeature('countries', { iso_a3: 'X' }, square, areaFields);
    expect(!noName.ok && noName.reason).toBe('missing_name');
    const bad = areaFromFeature(
      'countries',
      { name: 'X' },
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      },
      areaFields,
    );
    expect(!bad.ok && bad.reason).toBe('invalid_geometry');
  });

  it('merges parts sharing a key and renders the document', () => {
    const au = areaFromFeature('countries', { name: 'Australia', iso_a2: 'AU', iso_a3: 'AUS' }, square, areaFields);
    const ashmore = areaFromFeature('countries', { name: 'Ashmore', iso_a2: 'AU', iso_a3: 'AUS' }, islet, areaFields);
    if (!au.ok || !ashmore.ok) throw new Error('setup');
    const merged = mergeAreas(au.value, ashmore.value);
    expect(merged.name).toBe('Australia');
    expect(merged.geometry.type).toBe('MultiPolygon');
    const doc = toAreaDoc(merged);
    expect(doc).toMatchObject({
      level: 'country',
      name: 'Australia',
      name_key: 'australia',
      name_tokens: ['australia'],
      bbox: { min_lon: 4, min_lat: 50, max_lon: 6.1, max_lat: 53 },
      parent_id: '',
      country_id: '',
    });
  });
});

describe('building transform', () => {
  it('keys by BAG id, else by OSM id, and renders the document', () => {
    const fields = {
      key: { first: ['ref:bag', { join: ['osm_type', 'osm_id'], separator: '/' }] },
      localIdentifier: 'ref:bag',
      buildingType: 'building',
    };
    const bag = buildingFromFeature({ 'ref:bag': '503100000024959', building: 'house' }, square, fields);
    const osm = buildingFromFeature({ osm_type: 'way', osm_id: 7, building: 'shed' }, square, fields);
    if (!bag.ok || !osm.ok) throw new Error('setup');
    expect(bag.value.sourceKey).toBe('buildings:503100000024959');
    expect(osm.value.sourceKey).toBe('buildings:way/7');
    const doc = toBuildingDoc(bag.value, { ...emptyAllParents(), suburb_id: 's' });
    expect(doc).toMatchObject({
      local_identifier: '503100000024959',
      building_type: 'house',
      suburb_id: 's',
      city_id: '',
    });
    const broken = buildingFromFeature({ 'ref:bag': '1' }, { type: 'Polygon', coordinates: [] }, fields);
    expect(!broken.ok && broken.reason).toBe('invalid_geometry');
  });
});
