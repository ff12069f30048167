/** The dialects' shared form of a native answer (pure): reverse answers at a level, countries from postcodes. */
import { describe, expect, it } from 'vitest';
import { streetId } from '../../../../../core/elasticsearch/stableIds.js';
import { place } from '../../../../support/searchResults.js';
import {
  countryOfPostcode,
  inLanguage,
  reversePlace,
  searchPlace,
} from '../../../../../src/features/dialects/place.js';

const area = (id: string, name: string, local_identifier = '') => ({ id, name, local_identifier });
const AREAS = {
  country: area('nl', 'Netherlands', 'NL'),
  province: area('zh', 'Zuid-Holland'),
  municipality: area('gm', 'Delft'),
  city: area('wp', 'Delft'),
  suburb: area('sb', 'Wippolder'),
  building: null,
};
/** The reverse's domain result holds address documents: the street's id derives from its keys. */
const ADDRESS = {
  id: 'a1',
  suburb_id: 'sb',
  building_id: '',
  number: '8',
  suffix: '',
  streetname: 'Mekelweg',
  postcode: '2628CD',
  city: 'Delft',
  location: { lon: 4.37, lat: 51.99 },
  distance_m: 3,
  street_key: 'mekelweg',
  city_key: 'delft',
  source_ids: [],
};
const at = { lat: 51.99, lon: 4.37 };

describe('reversePlace', () => {
  it('the nearest address with the areas around it', () => {
    expect(reversePlace({ addresses: [ADDRESS], areas: AREAS }, 'address', at)).toMatchObject({
      kind: 'address',
      id: 'a1',
      housenumber: '8',
      street: 'Mekelweg',
      suburb: 'Wippolder',
      province: 'Zuid-Holland',
      countryCode: 'NL',
    });
  });

  it('its street, without a house number', () => {
    const street = reversePlace({ addresses: [ADDRESS], areas: AREAS }, 'street', at);
    expect(street).toMatchObject({ kind: 'street', name: 'Mekelweg', housenumber: '', label: 'Mekelweg, Delft' });
    // The street's own id, not the address's, nor an empty one.
    expect(street?.id).toBe(streetId('mekelweg', 'delft'));
  });

  it('an area with the larger areas only, at the point asked; the next larger level where one is missing', () => {
    const city = reversePlace({ addresses: [ADDRESS], areas: AREAS }, 'city', at);
    expect(city).toMatchObject({ kind: 'city', name: 'Delft', suburb: '', street: '', province: 'Zuid-Holland' });
    expect(city).toMatchObject({ lat: 51.99, lon: 4.37, label: 'Delft, Zuid-Holland, Netherlands' });
    const noAddress = reversePlace({ addresses: [], areas: { ...AREAS, suburb: null } }, 'address', at);
    expect(noAddress).toMatchObject({ kind: 'city', name: 'Delft' });
  });

  it('nothing anywhere: undefined', () => {
    const none = { country: null, province: null, municipality: null, city: null, suburb: null, building: null };
    expect(reversePlace({ addresses: [], areas: none }, 'address', at)).toBeUndefined();
  });
});

it('countryOfPostcode: Dutch 1234AB, Belgian 1234, else unknown', () => {
  expect(['2628CD', '2628 cd', '1000', '12345', ''].map(countryOfPostcode)).toEqual(['NL', 'NL', 'BE', '', '']);
});

it("inLanguage: a place's own name in the language asked, where it has one", () => {
  const street = searchPlace(
    place({
      type: 'street',
      label: 'Elizastraat, Elsene',
      id: 's1',
      longitude: 4.38,
      latitude: 50.81,
      bbox: [4.38, 50.81, 4.39, 50.82],
      address_count: 1,
      match: 'exact',
      confidence: 1,
      streetname: 'Elizastraat',
      city: 'Elsene',
      postcode: '1050',
      names: { nl: 'Elizastraat', fr: 'Rue Élise' },
    }),
  );
  expect(inLanguage(street, 'fr')).toMatchObject({
    name: 'Rue Élise',
    street: 'Rue Élise',
    label: 'Rue Élise, Elsene',
  });
  expect(inLanguage(street, 'de')).toBe(street);
  expect(inLanguage(street, undefined)).toBe(street);
});
