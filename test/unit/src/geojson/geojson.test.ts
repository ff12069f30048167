import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { AddressDoc } from '../../../../core/elasticsearch/documents.js';
import { featureCollection } from '../../../../src/geojson/features.js';
import { addressFeature } from '../../../../src/features/address/addressRecords.js';
import { streamFeatureCollection } from '../../../../src/geojson/streamCollection.js';

const address: AddressDoc = {
  id: 'a1',
  source_key: 'address:x',
  streetname: 'Mekelweg',
  street_key: 'mekelweg',
  street_text: 'mekelweg',
  house_number: 8,
  number: '8',
  letter: '',
  addition: '',
  suffix_key: '',
  suffix: '',
  postcode: '2628CD',
  postcode_key: '2628cd',
  city: 'Delft',
  city_key: 'delft',
  location: { lon: 4.37348, lat: 51.99536 },
  suburb_id: 's1',
  building_id: 'b1',
  city_id: 'c1',
  municipality_id: 'm1',
  province_id: 'p1',
  country_id: 'n1',
};

describe('GeoJSON shaping', () => {
  it('shapes an address as an RFC 7946 Point feature, lon before lat', () => {
    const feature = addressFeature(address);
    expect(feature).toEqual({
      type: 'Feature',
      id: 'a1',
      geometry: { type: 'Point', coordinates: [4.37348, 51.99536] },
      properties: {
        id: 'a1',
        suburb_id: 's1',
        building_id: 'b1',
        number: '8',
        suffix: '',
        streetname: 'Mekelweg',
        postcode: '2628CD',
        city: 'Delft',
        longitude: 4.37348,
        latitude: 51.99536,
      },
    });
  });

  it('streams a collection that parses as the buffered one', async () => {
    async function* pages() {
      yield [addressFeature(address)];
      yield [];
      yield [addressFeature({ ...address, id: 'a2' })];
    }
    const streamed = JSON.parse(await text(streamFeatureCollection(pages())));
    expect(streamed).toEqual(featureCollection([addressFeature(address), addressFeature({ ...address, id: 'a2' })]));
    async function* none() {}
    expect(JSON.parse(await text(streamFeatureCollection(none())))).toEqual({
      type: 'FeatureCollection',
      features: [],
    });
  });
});
