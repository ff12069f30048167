/** The Nominatim dialect's pure translations: parameters into the native requests, results into its formats. */
import { describe, expect, it } from 'vitest';
import {
  NominatimReverseQuery,
  NominatimSearchQuery,
  nominatimSearchRequest,
  reverseLevelOfZoom,
} from '../../../../../../src/features/dialects/nominatim/nominatimQuery.js';
import { structuredText } from '../../../../../../src/features/dialects/structuredAddress.js';
import {
  displayName,
  nominatimAddress,
  nominatimPlace,
  nominatimResults,
  nominatimReverse,
} from '../../../../../../src/features/dialects/nominatim/format.js';
import { searchPlace } from '../../../../../../src/features/dialects/place.js';
import { Attribution, UNRECORDED_SOURCES } from '../../../../../../src/indexes/attribution.js';
import { type AddressFields, addressHit, place } from '../../../../../support/searchResults.js';

const parse = (query: Record<string, string>) => NominatimSearchQuery.parse(query);
const request = (query: Record<string, string>, header?: string) => nominatimSearchRequest(parse(query), header);

const ADDRESS_FIELDS: AddressFields = {
  id: 'a1',
  suburb_id: 's1',
  building_id: 'b1',
  number: '8',
  suffix: 'A',
  streetname: 'Mekelweg',
  postcode: '2628CD',
  city: 'Delft',
  longitude: 4.3758823,
  latitude: 51.995343,
  confidence: 1,
  match: { street: 'exact', number: 'exact', postcode: 'none', city: 'none' },
};
const ADDRESS = addressHit(ADDRESS_FIELDS);
const CITY = place({
  type: 'city',
  label: 'Delft, Zuid-Holland',
  id: 'c1',
  name: 'Delft',
  local_identifier: '1234',
  longitude: 4.36,
  latitude: 52,
  bbox: [4.3, 51.9, 4.4, 52.1],
  address_count: 10,
  match: 'exact',
  confidence: 0.9,
  parents: { city: '', municipality: 'Delft', province: 'Zuid-Holland', country: 'Netherlands' },
});

describe('Nominatim search parameters', () => {
  it('reads free text, limit (clamped as Nominatim clamps) and jsonv2 by default', () => {
    expect(request({ q: 'Mekelweg 8 Delft', limit: '500' })).toMatchObject({ q: 'Mekelweg 8 Delft', size: 50 });
    expect(parse({ q: 'x' }).format).toBe('jsonv2');
    expect(parse({ q: 'x' }).limit).toBe(10);
  });

  it('joins the structured form into one text the search box reads, the country as a filter', () => {
    expect(structuredText({ street: '8 Mekelweg', postcode: '2628CD', city: 'Delft' })).toBe(
      '8 Mekelweg, 2628CD Delft',
    );
    expect(structuredText({ state: 'Zuid-Holland' })).toBe('Zuid-Holland');
    expect(request({ city: 'Brussel', country: 'Belgique' })).toMatchObject({ q: 'Brussel', country: 'BE' });
    // The country in any language or as a code, from the one table of countries.
    expect(request({ city: 'Delft', country: 'Pays-Bas' })).toMatchObject({ q: 'Delft', country: 'NL' });
    expect(request({ city: 'Delft', country: 'NLD' })).toMatchObject({ q: 'Delft', country: 'NL' });
  });

  it('refuses q with the structured form, and neither', () => {
    expect(NominatimSearchQuery.safeParse({ q: 'Delft', city: 'Delft' }).success).toBe(false);
    expect(NominatimSearchQuery.safeParse({ format: 'json' }).success).toBe(false);
    expect(NominatimSearchQuery.safeParse({ q: 'Delft', format: 'xml' }).success).toBe(false);
  });

  it('ignores parameters it does not know, as Nominatim does', () => {
    expect(NominatimSearchQuery.safeParse({ q: 'Delft', email: 'a@b.c', dedupe: '1', osmServer: 'x' }).success).toBe(
      true,
    );
  });

  it('keeps to the indexed countries countrycodes names; none of them: nothing to search', () => {
    expect(request({ q: 'Delft', countrycodes: 'nl' })).toMatchObject({ country: 'NL' });
    expect(request({ q: 'Delft', countrycodes: 'nl,be' })).toMatchObject({ country: undefined });
    expect(request({ q: 'Delft', countrycodes: 'de,fr' })).toBe('empty');
    expect(request({ city: 'Delft', country: 'Belgium', countrycodes: 'nl' })).toBe('empty');
  });

  it('a bounded viewbox filters, an unbounded one is a focus at its centre', () => {
    expect(request({ q: 'x', viewbox: '4.4,52.1,4.2,51.9', bounded: '1' })).toMatchObject({
      bbox: { minLon: 4.2, minLat: 51.9, maxLon: 4.4, maxLat: 52.1 },
      focus: undefined,
    });
    const preferred = request({ q: 'x', viewbox: '4.2,51.9,4.4,52.1' });
    expect(preferred).toMatchObject({ bbox: undefined });
    expect((preferred as { focus: { lat: number; lon: number } }).focus.lat).toBeCloseTo(52);
    expect(NominatimSearchQuery.safeParse({ q: 'x', viewbox: '4,52,5' }).success).toBe(false);
  });

  it('takes accept-language before the header, and featureType as layers', () => {
    expect(request({ q: 'x', 'accept-language': 'fr-BE,fr;q=0.9' }, 'nl')).toMatchObject({
      language: { lang: 'fr', acceptLanguage: 'nl' },
    });
    expect(request({ q: 'x', featureType: 'city' })).toMatchObject({ layers: ['city', 'municipality'] });
  });
});

describe('Nominatim reverse parameters', () => {
  it('maps zoom to our levels, 18 by default', () => {
    expect(NominatimReverseQuery.parse({ lat: '52', lon: '4' }).zoom).toBe(18);
    expect([18, 17, 15, 14, 13, 10, 8, 5, 3, 0].map(reverseLevelOfZoom)).toEqual([
      'address',
      'street',
      'street',
      'suburb',
      'suburb',
      'city',
      'municipality',
      'province',
      'country',
      'country',
    ]);
    expect(NominatimReverseQuery.safeParse({ lat: '52', lon: '4', zoom: '19' }).success).toBe(false);
    expect(NominatimReverseQuery.safeParse({ lat: '1e1', lon: '4' }).success).toBe(false);
  });
});

describe('Nominatim results', () => {
  const attribution = new Attribution([
    { level: 'countries', text: 'Natural Earth' },
    { level: 'provinces', countries: ['NL'], text: 'CBS' },
    { level: 'cities', countries: ['NL'], text: 'OSM' },
    { level: 'addresses', countries: ['NL'], text: 'OSM' },
    { level: 'addresses', countries: ['BE'], text: 'BeST' },
  ]);
  const json = { format: 'json' as const, addressdetails: true, namedetails: false, attribution };

  it("names the sources of each result's data in its licence, and of all of them in a collection's", () => {
    expect(nominatimPlace(searchPlace(ADDRESS), json).licence).toBe('OSM; Natural Earth');
    // The city shows its province too: CBS's data.
    expect(nominatimPlace(searchPlace(CITY), json).licence).toBe('OSM; CBS; Natural Earth');
    const brussels = searchPlace(addressHit({ ...ADDRESS_FIELDS, postcode: '1050', city: 'Elsene' }));
    expect(nominatimPlace(brussels, json).licence).toBe('BeST; Natural Earth');
    const places = [searchPlace(ADDRESS), brussels];
    expect(nominatimResults(places, { ...json, format: 'geojson' })).toMatchObject({
      licence: 'OSM; Natural Earth; BeST',
    });
    expect(nominatimResults([], { ...json, format: 'geojson' })).toMatchObject({ licence: UNRECORDED_SOURCES });
    // A generation that kept no table (indexed before it was kept) names no source it cannot know.
    const none = nominatimPlace(searchPlace(ADDRESS), { ...json, attribution: new Attribution([]) });
    expect(none.licence).toBe(UNRECORDED_SOURCES);
  });

  it('an address: strings for lat, lon and boundingbox, the address details, the country from its postcode', () => {
    const place = nominatimPlace(searchPlace(ADDRESS), json);
    expect(place).toMatchObject({
      place_id: 'a1',
      lat: '51.995343',
      lon: '4.3758823',
      class: 'place',
      type: 'house',
      name: 'Mekelweg 8A',
      display_name: '8A, Mekelweg, Delft, 2628CD, Netherlands',
      address: { house_number: '8A', road: 'Mekelweg', city: 'Delft', postcode: '2628CD', country_code: 'nl' },
      boundingbox: ['51.995343', '51.995343', '4.3758823', '4.3758823'],
    });
  });

  it('a city: its box as [minlat, maxlat, minlon, maxlon], category and rank in jsonv2', () => {
    const place = nominatimPlace(searchPlace(CITY), { ...json, format: 'jsonv2' });
    expect(place).toMatchObject({ category: 'place', type: 'city', place_rank: 16, addresstype: 'city' });
    expect(place).not.toHaveProperty('class');
    expect(place.boundingbox).toEqual(['51.9', '52.1', '4.3', '4.4']);
    expect(nominatimAddress(searchPlace(CITY))).toEqual({
      city: 'Delft',
      state: 'Zuid-Holland',
      country: 'Netherlands',
      country_code: 'nl',
    });
    expect(displayName(searchPlace(CITY))).toBe('Delft, Zuid-Holland, Netherlands');
  });

  it('geojson and geocodejson collections, and the reverse error object', () => {
    const places = [searchPlace(ADDRESS)];
    expect(nominatimResults(places, { ...json, format: 'geojson' })).toMatchObject({
      type: 'FeatureCollection',
      features: [{ geometry: { type: 'Point', coordinates: [4.3758823, 51.995343] }, properties: { place_id: 'a1' } }],
    });
    expect(nominatimResults(places, { ...json, format: 'geocodejson' }, 'Mekelweg 8a')).toMatchObject({
      geocoding: { version: '0.1.0', query: 'Mekelweg 8a' },
      features: [{ properties: { geocoding: { type: 'house', housenumber: '8A', street: 'Mekelweg' } } }],
    });
    expect(nominatimReverse(undefined, json)).toEqual({ error: 'Unable to geocode' });
  });
});
