import { describe, expect, it } from 'vitest';
import { resultsAsFeatures } from '../../../../src/geojson/resultFeatures.js';

const city = {
  type: 'city',
  id: 'c1',
  label: 'Delft, Zuid-Holland',
  longitude: 4.36,
  latitude: 52.01,
  bbox: [4.32, 51.96, 4.41, 52.03] as [number, number, number, number],
};
const address = { type: 'address', id: 'a1', longitude: 4.5, latitude: 51.9, number: '8' };
const street = { type: 'street', id: '', longitude: 4.37, latitude: 52.0 };

describe('resultsAsFeatures', () => {
  it('makes one Point per record, the record itself as properties, its bbox and id on the feature', () => {
    const collection = resultsAsFeatures([city, address]);
    expect(collection.features).toEqual([
      {
        type: 'Feature',
        id: 'c1',
        geometry: { type: 'Point', coordinates: [4.36, 52.01] },
        bbox: [4.32, 51.96, 4.41, 52.03],
        properties: city,
      },
      { type: 'Feature', id: 'a1', geometry: { type: 'Point', coordinates: [4.5, 51.9] }, properties: address },
    ]);
  });

  it('gives the collection the envelope of every box and point', () => {
    expect(resultsAsFeatures([city, address]).bbox).toEqual([4.32, 51.9, 4.5, 52.03]);
    expect(resultsAsFeatures([address]).bbox).toEqual([4.5, 51.9, 4.5, 51.9]);
  });

  it('leaves out an empty id and, with no results, the collection bbox', () => {
    expect(resultsAsFeatures([street]).features[0]).not.toHaveProperty('id');
    expect(resultsAsFeatures([])).toEqual({ type: 'FeatureCollection', features: [] });
  });
});
