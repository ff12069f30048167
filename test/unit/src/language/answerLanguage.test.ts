import { describe, expect, it } from 'vitest';
import { streetKey } from '../../../../core/text/normalise.js';
import { namesFromMunicipality } from '../../../../indexer/derived/derivedCities.js';
import {
  answerLanguage,
  distinctNames,
  languageOfKey,
  localName,
  preferredLanguage,
} from '../../../../src/language/answerLanguage.js';
import { addressesInLanguage, inLanguage, queryLanguage } from '../../../../src/features/address/addressLanguage.js';
import { parseStreetQuery } from '../../../../src/features/address/streetRequest.js';
import { KnownCities } from '../../../../src/features/cities/knownCities.js';
import {
  languageTypedWithTypo,
  suggestionInLanguage,
} from '../../../../src/features/autocomplete/suggestionLanguage.js';
import { languageTyped, placeInLanguage } from '../../../../src/features/places/placeLanguage.js';
import { reverseInLanguage } from '../../../../src/features/reverse/reverseLanguage.js';

const elsene = { nl: 'Elsene', fr: 'Ixelles', de: 'Ixelles' };
const rueElise = { nl: 'Elizastraat', fr: 'Rue Élise' };

describe('the answer language', () => {
  it.each([
    ['fr-BE,fr;q=0.9,nl;q=0.8', 'fr'],
    ['nl-BE', 'nl'],
    ['en-GB,en;q=0.9,de;q=0.5', 'de'],
    ['en;q=1,fr;q=0.2,nl;q=0.7', 'nl'],
    ['*', undefined],
    ['en-US', undefined],
    ['fr;q=0', undefined],
    ['', undefined],
  ])('Accept-Language %j prefers %j', (header, expected) => {
    expect(preferredLanguage(header)).toBe(expected);
  });

  it('is lang, else Accept-Language, else the language the query matched in, else none', () => {
    expect(answerLanguage({ lang: 'nl', acceptLanguage: 'fr', matched: 'de' })).toBe('nl');
    expect(answerLanguage({ acceptLanguage: 'fr-BE', matched: 'nl' })).toBe('fr');
    expect(answerLanguage({ acceptLanguage: 'en', matched: 'nl' })).toBe('nl');
    expect(answerLanguage({})).toBeUndefined();
  });

  it('shows the name in that language where the record has one, else the primary name', () => {
    expect(localName('Elsene', elsene, 'fr')).toBe('Ixelles');
    expect(localName('Elsene', elsene, undefined)).toBe('Elsene');
    expect(localName('Delft', undefined, 'fr')).toBe('Delft');
  });

  it('knows the language of a query key only when one language has that name', () => {
    expect(languageOfKey(streetKey('rue elise'), rueElise, streetKey)).toBe('fr');
    expect(languageOfKey(streetKey('Elizastraat'), rueElise, streetKey)).toBe('nl');
    expect(languageOfKey('ixelles', elsene)).toBe('fr'); // French and German alike: the first
    expect(languageOfKey('anderlecht', { nl: 'Anderlecht', fr: 'Anderlecht' })).toBeUndefined();
    expect(languageOfKey('elsenee', elsene)).toBeUndefined();
  });

  it('lists names only where there is more than one', () => {
    expect(distinctNames({ nl: 'Anderlecht', fr: 'Anderlecht' })).toBeUndefined();
    expect(distinctNames(elsene)).toEqual(elsene);
  });
});

describe('addresses in the answer language', () => {
  const doc = { streetname: 'Elizastraat', city: 'Elsene', street_names: rueElise };

  it('answer in the language the street was written in, with both names', () => {
    const q = parseStreetQuery({ streetname: 'rue elise', number: '117' });
    expect(queryLanguage(q, doc, elsene)).toBe('fr');
    expect(inLanguage(doc, 'fr', elsene)).toEqual({
      ...doc,
      streetname: 'Rue Élise',
      city: 'Ixelles',
      names: { streetname: rueElise, city: elsene },
    });
  });

  it('leave a one-language address as it is', () => {
    const delft = { streetname: 'Mekelweg', city: 'Delft' };
    expect(inLanguage(delft, 'fr', undefined)).toEqual(delft);
  });
});

describe('city names in any language', () => {
  const cities = new KnownCities(['elsene', 'brussel', 'delft'], new Map([['elsene', elsene]]));

  it('read the other-language name as the indexed city, exactly or with a typo', () => {
    expect(cities.match(['Ixelles'])).toEqual({ key: 'elsene', distance: 0 });
    expect(cities.match(['Ixeles'])).toEqual({ key: 'elsene', distance: 1 });
    expect(cities.canonical('ixelles')).toBe('elsene');
    expect(cities.canonical('delft')).toBe('delft');
  });

  it('never shadow an indexed city with another language name', () => {
    const clash = new KnownCities(['ixelles', 'elsene'], new Map([['elsene', elsene]]));
    expect(clash.match(['Ixelles'])).toEqual({ key: 'ixelles', distance: 0 });
  });

  it('come from the municipality a derived city is named after, in any of its languages', () => {
    expect(namesFromMunicipality('elsene', elsene)).toEqual(elsene);
    expect(namesFromMunicipality('ixelles', elsene)).toEqual(elsene);
    expect(namesFromMunicipality('flagey', elsene)).toBeUndefined();
    expect(namesFromMunicipality('delft', undefined)).toBeUndefined();
  });
});

describe('suggestions in the answer language', () => {
  const suggestion = {
    type: 'street' as const,
    label: 'Nieuwstraat, Brussel',
    streetname: 'Nieuwstraat',
    number: '',
    suffix: '',
    postcode: '',
    city: 'Brussel',
    location: { lat: 50.85, lon: 4.35 },
    street_names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
  };

  it('show the name in the language typed, or the one asked for', () => {
    expect(languageTyped('rue n', suggestion.street_names)).toBe('fr');
    expect(languageTyped('neu', suggestion.street_names)).toBe('fr');
    expect(languageTyped('nieuw', suggestion.street_names)).toBe('nl');
    expect(suggestionInLanguage(suggestion, 'rue n', {})).toMatchObject({
      streetname: 'Rue Neuve',
      label: 'Rue Neuve, Brussel',
      names: { streetname: { nl: 'Nieuwstraat', fr: 'Rue Neuve' } },
    });
    expect(suggestionInLanguage(suggestion, 'rue n', { lang: 'nl' })).toMatchObject({ streetname: 'Nieuwstraat' });
    expect(suggestionInLanguage({ ...suggestion, street_names: undefined }, 'n', {})).not.toHaveProperty('names');
  });

  it("know the language of a name typed with a typo, by the typo round's own rule", () => {
    expect(languageTypedWithTypo('rue nauve', suggestion.street_names)).toBe('fr');
    expect(languageTypedWithTypo('nieuwstrat', suggestion.street_names)).toBe('nl');
    expect(languageTypedWithTypo('nauve', suggestion.street_names)).toBe('fr'); // a later word of the name
    expect(languageTypedWithTypo('rue', suggestion.street_names)).toBeUndefined(); // too short for a typo
    expect(suggestionInLanguage(suggestion, 'rue nauve', {})).toMatchObject({ streetname: 'Rue Neuve' });
  });

  it("show the city, and the label's city, in the same language where the city has several names", () => {
    const cities = new Map([['brussel', { nl: 'Brussel', fr: 'Bruxelles', de: 'Brüssel' }]]);
    expect(suggestionInLanguage(suggestion, 'rue n', {}, cities)).toMatchObject({
      streetname: 'Rue Neuve',
      city: 'Bruxelles',
      label: 'Rue Neuve, Bruxelles',
      names: { streetname: { nl: 'Nieuwstraat', fr: 'Rue Neuve' }, city: { fr: 'Bruxelles' } },
    });
    expect(suggestionInLanguage(suggestion, 'rue n', { lang: 'nl' }, cities)).toMatchObject({
      label: 'Nieuwstraat, Brussel',
    });
    const address = { ...suggestion, type: 'address' as const, number: '1', label: 'Nieuwstraat 1, 1000 Brussel' };
    expect(suggestionInLanguage(address, 'nieuwstraat', { lang: 'fr' }, cities).label).toBe(
      'Rue Neuve 1, 1000 Bruxelles',
    );
  });
});

describe('areas offered while typing', () => {
  const place = { name: 'Elsene', names: elsene, label: 'Elsene, Brussels Hoofdstedelijk Gewest' } as never;

  it('are named in the language asked, else the one typed, the label following', () => {
    expect(placeInLanguage(place, 'ixel', {})).toMatchObject({
      name: 'Ixelles',
      label: 'Ixelles, Brussels Hoofdstedelijk Gewest',
    });
    expect(placeInLanguage(place, 'ixel', { lang: 'nl' })).toMatchObject({ name: 'Elsene' });
    expect(placeInLanguage(place, 'elsen', {})).toMatchObject({ name: 'Elsene' });
    const delft = { name: 'Delft', names: {}, label: 'Delft' } as never;
    expect(placeInLanguage(delft, 'delf', { lang: 'fr' })).toBe(delft);
  });
});

describe('places the search box answers', () => {
  it('are named in the language the whole text was written in, a street its streetname too', () => {
    const street = {
      type: 'street',
      name: 'Nieuwstraat',
      streetname: 'Nieuwstraat',
      names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
      label: 'Nieuwstraat, Brussel',
    } as never;
    expect(placeInLanguage(street, 'rue neuve bruxelles', {})).toMatchObject({
      name: 'Rue Neuve',
      streetname: 'Rue Neuve',
      label: 'Rue Neuve, Brussel',
    });
    expect(placeInLanguage(street, 'rue neuve bruxelles', { lang: 'nl' })).toEqual(street);
    expect(placeInLanguage(street, 'nieuwstraat brussel', { lang: 'fr' })).toMatchObject({ streetname: 'Rue Neuve' });
    // Part of a name is no writing of it: "rue" alone tells nothing.
    expect(placeInLanguage(street, 'rue brussel', {})).toEqual(street);
  });
});

describe('answers asked without a name (by id, near a point)', () => {
  const cities = new Map([['elsene', elsene]]);
  const address = { streetname: 'Elizastraat', city: 'Elsene', street_names: rueElise };

  it('show addresses in the chosen language, else their primary names, with their names', () => {
    expect(addressesInLanguage('fr', cities)(address)).toMatchObject({ streetname: 'Rue Élise', city: 'Ixelles' });
    expect(addressesInLanguage(undefined, cities)(address)).toMatchObject({
      streetname: 'Elizastraat',
      city: 'Elsene',
      names: { streetname: rueElise, city: elsene },
    });
  });

  it('name the areas of a reverse answer in the chosen language, a building as it is', () => {
    const none = { country: null, province: null, city: null, suburb: null };
    const municipality = { id: 'm', name: 'Elsene', local_identifier: '21009', names: elsene };
    const building = { id: 'b', name: 'x', local_identifier: 'x' };
    const answer = { addresses: [{ ...address, distance_m: 1 }], areas: { ...none, municipality, building } };
    const french = reverseInLanguage(answer as never, 'fr', cities);
    expect(french.areas.municipality).toEqual({ ...municipality, name: 'Ixelles' });
    expect(french.areas.building).toEqual(building);
    expect(french.addresses[0]).toMatchObject({ streetname: 'Rue Élise', city: 'Ixelles' });
    expect(reverseInLanguage(answer as never, 'nl', cities).areas.municipality?.name).toBe('Elsene');
  });
});
