import { describe, expect, it } from 'vitest';
import { localise, relabel } from '../../../../src/language/localise.js';
import { PLACE_TYPE_RULES, TYPES_WHILE_TYPING } from '../../../../src/features/places/placeTypes.js';
import { AREA_PLACE_TYPES, PLACE_TYPES } from '../../../../core/elasticsearch/documents.js';
import { SearchResult } from '../../../../src/schemas/responses.js';

const rueNeuve = { nl: 'Nieuwstraat', fr: 'Rue Neuve' };
const brussels = { nl: 'Brussel', fr: 'Bruxelles' };

describe('localise: the one localisation step', () => {
  it('shows each named field in the language, follows it in the label and gathers the distinct names', () => {
    const suggestion = { streetname: 'Nieuwstraat', city: 'Brussel', label: 'Nieuwstraat 12, 1000 Brussel' };
    const { record, names } = localise(
      suggestion,
      [
        { field: 'streetname', names: rueNeuve },
        { field: 'city', names: brussels },
      ],
      'fr',
    );
    expect(record).toEqual({ streetname: 'Rue Neuve', city: 'Bruxelles', label: 'Rue Neuve 12, 1000 Bruxelles' });
    expect(names).toEqual({ streetname: rueNeuve, city: brussels });
    expect(suggestion.streetname).toBe('Nieuwstraat');
  });

  it('keeps the primary value where the record has no name in the language, or no language was chosen', () => {
    const area = { name: 'Anderlecht', label: 'Anderlecht, Brussels' };
    expect(localise(area, [{ field: 'name', names: { nl: 'Anderlecht', fr: 'Anderlecht' } }], 'fr')).toEqual({
      record: area,
      names: {},
    });
    expect(localise(area, [{ field: 'name', names: undefined }], undefined).record).toEqual(area);
    expect(localise({ name: 'Elsene' }, [{ field: 'name', names: { nl: 'Elsene' } }], 'fr').record.name).toBe('Elsene');
  });

  it('rewrites a label only where it begins or ends with the value', () => {
    expect(relabel('Brussel, Brussels', 'Brussel', 'Bruxelles')).toBe('Bruxelles, Brussels');
    expect(relabel('1000 Brussel', 'Brussel', 'Bruxelles')).toBe('1000 Bruxelles');
    expect(relabel('Grote Markt, Brussel-Stad', 'Markt', 'Marché')).toBe('Grote Markt, Brussel-Stad');
    expect(relabel('x', '', 'y')).toBe('x');
  });
});

describe('the result-type table', () => {
  const parents = { city: 'Delft', municipality: 'Delft', province: 'Zuid-Holland', country: 'Netherlands' };
  it('gives every place type its label, prior and type-ahead rule', () => {
    const labels = Object.fromEntries(
      PLACE_TYPES.map((type) => [type, PLACE_TYPE_RULES[type].label({ name: 'N', city: 'C', parents })]),
    );
    expect(labels).toEqual({
      street: 'N, C',
      postcode: 'N C',
      city: 'N, Zuid-Holland',
      suburb: 'N, Delft',
      municipality: 'N, Zuid-Holland',
      province: 'N, Netherlands',
      country: 'N',
    });
    expect(TYPES_WHILE_TYPING).toEqual(AREA_PLACE_TYPES);
    expect(PLACE_TYPE_RULES.city.prior).toBeGreaterThan(PLACE_TYPE_RULES.municipality.prior);
  });

  it('gives every area type the area record of GET /search', () => {
    const common = { label: 'x', id: 'x', longitude: 4, latitude: 52, bbox: [4, 52, 4, 52], address_count: 0 };
    for (const type of AREA_PLACE_TYPES) {
      const area = { type, ...common, match: 'exact', confidence: 1, name: 'x', local_identifier: '', parents };
      expect(SearchResult.safeParse(area).success, type).toBe(true);
    }
  });
});
