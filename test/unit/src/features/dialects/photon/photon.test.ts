/** The Photon dialect's pure translations. */
import { describe, expect, it } from 'vitest';
import { photonFeature } from '../../../../../../src/features/dialects/photon/format.js';
import {
  PhotonReverseQuery,
  PhotonSearchQuery,
  photonSearchRequest,
  reverseRadiusMetres,
} from '../../../../../../src/features/dialects/photon/photonQuery.js';
import { searchPlace } from '../../../../../../src/features/dialects/place.js';
import { place } from '../../../../../support/searchResults.js';

describe('Photon parameters', () => {
  it('q, limit, lang, a focus, a bbox filter and layers', () => {
    const query = PhotonSearchQuery.parse({
      q: 'Delft',
      limit: '3',
      lang: 'fr',
      lat: '52',
      lon: '4.3',
      bbox: '4.2,51.9,4.4,52.1',
      layer: 'city,county',
      osm_tag: 'place:city',
    });
    expect(photonSearchRequest(query, undefined)).toMatchObject({
      q: 'Delft',
      size: 3,
      focus: { lat: 52, lon: 4.3 },
      bbox: { minLon: 4.2, minLat: 51.9, maxLon: 4.4, maxLat: 52.1 },
      layers: ['city', 'municipality'],
      language: { lang: 'fr' },
    });
    expect(PhotonSearchQuery.safeParse({ q: 'x', layer: 'planet' }).success).toBe(false);
    expect(PhotonSearchQuery.safeParse({ q: 'x', lat: '52' }).success).toBe(false);
  });

  it('reverse: radius in km, within our bound', () => {
    expect(PhotonReverseQuery.parse({ lat: '52', lon: '4' })).toMatchObject({ limit: 1 });
    expect(reverseRadiusMetres(0.1, 200)).toBe(100);
    expect(reverseRadiusMetres(50, 200)).toBe(5000);
    expect(reverseRadiusMetres(undefined, 200)).toBe(200);
  });
});

it("a feature: Photon's properties, and an area's extent as [minLon, maxLat, maxLon, minLat]", () => {
  const street = searchPlace(
    place({
      type: 'street',
      label: 'Mekelweg, Delft',
      id: 's1',
      longitude: 4.37,
      latitude: 52,
      bbox: [4.36, 51.99, 4.38, 52.01],
      address_count: 18,
      match: 'exact',
      confidence: 1,
      streetname: 'Mekelweg',
      city: 'Delft',
      postcode: '2628CD',
    }),
  );
  expect(photonFeature(street)).toEqual({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [4.37, 52] },
    properties: {
      id: 's1',
      osm_key: 'highway',
      osm_value: 'residential',
      type: 'street',
      name: 'Mekelweg',
      street: 'Mekelweg',
      postcode: '2628CD',
      city: 'Delft',
      country: 'Netherlands',
      countrycode: 'NL',
      extent: [4.36, 52.01, 4.38, 51.99],
    },
  });
});
