/** The Pelias dialect's pure translations. */
import { describe, expect, it } from 'vitest';
import { gidOf, idOfGid, peliasFeature, peliasLabel } from '../../../../../../src/features/dialects/pelias/format.js';
import {
  distanceKm,
  keepsTo,
  PeliasSearchQuery,
  peliasSearchRequest,
} from '../../../../../../src/features/dialects/pelias/peliasQuery.js';
import { addressPlace } from '../../../../../../src/features/dialects/place.js';

const parse = (q: Record<string, string>) => PeliasSearchQuery.parse(q);
const MEKELWEG = addressPlace(
  {
    id: 'a1',
    number: '8',
    suffix: '',
    streetname: 'Mekelweg',
    postcode: '2628CD',
    city: 'Delft',
    longitude: 4.3758823,
    latitude: 51.995343,
  },
  1,
);

describe('Pelias parameters', () => {
  it('text, size, focus, lang, layers and boundary.country as the search box request', () => {
    const q = parse({
      text: 'Delft',
      size: '3',
      'focus.point.lat': '52',
      'focus.point.lon': '4.3',
      lang: 'fr',
      layers: 'coarse',
      'boundary.country': 'NLD',
      sources: 'osm',
    });
    expect(peliasSearchRequest(q, undefined)).toMatchObject({
      q: 'Delft',
      size: 3,
      focus: { lat: 52, lon: 4.3 },
      country: 'NL',
      layers: ['suburb', 'city', 'municipality', 'province', 'country'],
      language: { lang: 'fr' },
    });
    expect(peliasSearchRequest(parse({ text: 'x', 'boundary.country': 'DE' }), undefined)).toBe('empty');
  });

  it('boundary.rect needs its four corners, focus its two coordinates', () => {
    expect(PeliasSearchQuery.safeParse({ text: 'x', 'boundary.rect.min_lat': '50' }).success).toBe(false);
    expect(PeliasSearchQuery.safeParse({ text: 'x', 'focus.point.lat': '50' }).success).toBe(false);
    expect(PeliasSearchQuery.safeParse({ text: 'x', layers: 'venue' }).success).toBe(false);
  });

  it('keepsTo: a circle in km, a rectangle, the layers', () => {
    const near = { 'boundary.circle.lat': '52', 'boundary.circle.lon': '4.37', 'boundary.circle.radius': '1' };
    expect(keepsTo(parse({ text: 'x', ...near }))(MEKELWEG)).toBe(true);
    expect(keepsTo(parse({ text: 'x', ...near, 'boundary.circle.radius': '0.1' }))(MEKELWEG)).toBe(false);
    expect(keepsTo(parse({ text: 'x', layers: 'street' }))(MEKELWEG)).toBe(false);
    expect(distanceKm({ lat: 52, lon: 4 }, { lat: 53, lon: 4 })).toBeCloseTo(111.2, 0);
  });
});

it("a feature: gid, layer, Pelias' properties, the label", () => {
  expect(peliasFeature(MEKELWEG).properties).toMatchObject({
    gid: 'geocoder:address:a1',
    layer: 'address',
    source: 'geocoder',
    housenumber: '8',
    street: 'Mekelweg',
    postalcode: '2628CD',
    locality: 'Delft',
    country_a: 'NLD',
    accuracy: 'point',
    match_type: 'exact',
  });
  expect(peliasLabel(MEKELWEG)).toBe('Mekelweg 8, Delft, Netherlands');
  expect(idOfGid(gidOf(MEKELWEG))).toEqual({ layer: 'address', id: 'a1' });
  expect(idOfGid('whosonfirst:locality:1')).toBeUndefined();
});
