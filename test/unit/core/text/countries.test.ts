import { describe, expect, it } from 'vitest';
import { metresBetween } from '../../../../core/geo/distance.js';
import { COUNTRY_CODES, countryNamed, countryOfAreaName, countryOfCode } from '../../../../core/text/countries.js';
import { countryCodeOf, countryName } from '../../../../src/features/dialects/place.js';
import { SearchQueryParams } from '../../../../src/schemas/requests.js';

describe('the one country table', () => {
  it('gives every use its form of a country: codes, the areas index name, the names people write', () => {
    expect(COUNTRY_CODES).toEqual(['NL', 'BE']);
    expect(countryOfCode('be')?.code3).toBe('BEL');
    expect(countryOfAreaName('NETHERLANDS')?.code).toBe('NL');
    expect(countryNamed('Pays-Bas')).toBe('NL');
    expect([countryName('BE'), countryCodeOf('Belgium'), countryName('DE'), countryCodeOf('Germany')]).toEqual([
      'Belgium',
      'BE',
      '',
      '',
    ]);
  });

  it("is what /search's `country` accepts, in either case", () => {
    expect(SearchQueryParams.parse({ q: 'Delft', country: 'be' }).country).toBe('BE');
    expect(SearchQueryParams.safeParse({ q: 'Delft', country: 'DE' }).success).toBe(false);
  });
});

describe('the one great-circle distance', () => {
  it('measures a degree of latitude as about 111.2 km, and nothing between a point and itself', () => {
    expect(metresBetween({ lat: 52, lon: 4 }, { lat: 53, lon: 4 })).toBeCloseTo(111_195, -1);
    expect(metresBetween({ lat: 52, lon: 4 }, { lat: 52, lon: 4 })).toBe(0);
  });
});
