import { describe, expect, it } from 'vitest';
import { mergeReadings, readFreeText, readingsForNextTier } from '../../../../../src/features/search/freeText.js';
import { KnownCities } from '../../../../../src/features/cities/knownCities.js';

const cities = new KnownCities([
  'delft',
  'brussel',
  'den haag',
  's gravenhage',
  'bergen op zoom',
  'rotterdam',
  'lelystad',
  'almere',
  '2e exloermond',
]);
const read = (text: string, countries?: ('NL' | 'BE')[]) =>
  readFreeText(text, { cities, ...(countries ? { countries } : {}) }).map((r) => ({ ...r.query, how: r.city }));

describe('readFreeText', () => {
  it.each([
    ['Mekelweg 8, 2628 CD Delft', { streetname: 'Mekelweg', number: '8', postcode: '2628 CD', city: 'delft' }],
    ['mekelweg 8 2628cd delft', { streetname: 'mekelweg', number: '8', postcode: '2628cd', city: 'delft' }],
    ['Delft, Mekelweg 8', { streetname: 'Mekelweg', number: '8', city: 'delft' }],
    ['2628CD 8a', { number: '8a', postcode: '2628CD' }],
    ['Rotterdamseweg 139A-1 Delft', { streetname: 'Rotterdamseweg', number: '139A-1', city: 'delft' }],
    ['Wetstraat 16 1000 Brussel', { streetname: 'Wetstraat', number: '16', postcode: '1000', city: 'brussel' }],
    ['1000 Brussel, Wetstraat 16', { streetname: 'Wetstraat', number: '16', postcode: '1000', city: 'brussel' }],
    ['MEKELWEG 8 DELFT', { streetname: 'MEKELWEG', number: '8', city: 'delft' }],
    ['Mekelweg 8 a Delft', { streetname: 'Mekelweg', number: '8 a', city: 'delft' }],
    ['Mekelweg 12 hs', { streetname: 'Mekelweg', number: '12 hs' }],
    ['Rotterdamseweg 139 A-1 Delft', { streetname: 'Rotterdamseweg', number: '139 A-1', city: 'delft' }],
    ['Kogge 03 2, 8242 AM Lelystad', { streetname: 'Kogge', number: '03 2', postcode: '8242 AM', city: 'lelystad' }],
    ['Markerkant 13 120 Almere', { streetname: 'Markerkant', number: '13 120', city: 'almere' }],
    ['2e Exloërmond, Noorderdiep 2', { streetname: 'Noorderdiep', number: '2', city: '2e exloermond' }],
    ['1e Jan Steenstraat 12 Delft', { streetname: '1e Jan Steenstraat', number: '12', city: 'delft' }],
    ['Oude Delft 1, Delft, Nederland', { streetname: 'Oude Delft', number: '1', city: 'delft' }],
    ['Lange Voorhout 1 Den Haag', { streetname: 'Lange Voorhout', number: '1', city: 'den haag' }],
    ['Mekelweg 8 Dleft', { streetname: 'Mekelweg', number: '8', city: 'delft' }],
    ['Wetstraat 1000', { streetname: 'Wetstraat', number: '1000' }],
    [
      'Wetstraat 16 bus 3, 1000 Brussel',
      { streetname: 'Wetstraat', number: '16 bus 3', postcode: '1000', city: 'brussel' },
    ],
    ['Wetstraat 16 bte 3 Brussel', { streetname: 'Wetstraat', number: '16 bte 3', city: 'brussel' }],
    ['Wetstraat 16 boîte 3 Brussel', { streetname: 'Wetstraat', number: '16 boîte 3', city: 'brussel' }],
    ['Wetstraat 16 b 3 Brussel', { streetname: 'Wetstraat', number: '16 b 3', city: 'brussel' }],
    ['Wetstraat 16 b3 Brussel', { streetname: 'Wetstraat', number: '16 b3', city: 'brussel' }],
    ['Wetstraat 16/3 Brussel', { streetname: 'Wetstraat', number: '16/3', city: 'brussel' }],
    // Boxes of letters (the register's letter boxes and floor codes) after a spelled-out box word.
    [
      'Wetstraat 16 bus A, 1000 Brussel',
      { streetname: 'Wetstraat', number: '16 bus A', postcode: '1000', city: 'brussel' },
    ],
    ['Wetstraat 16 bte RDC Brussel', { streetname: 'Wetstraat', number: '16 bte RDC', city: 'brussel' }],
    ['Wetstraat 16 boîte etrc Brussel', { streetname: 'Wetstraat', number: '16 boîte etrc', city: 'brussel' }],
    // ... but not a known city's name, nor letters after a lone b (there b is the house letter).
    ['Mekelweg 8 bus Delft', { streetname: 'Mekelweg', number: '8', city: 'delft' }],
    ['Wetstraat 16 b rdc', { streetname: 'Wetstraat', number: '16 b' }],
  ])('%j', (text, expected) => {
    expect(read(text)[0]).toMatchObject(expected);
    // Nothing the text does not say is invented.
    for (const key of ['streetname', 'postcode', 'city'] as const) {
      if (!(key in expected)) expect(read(text)[0]).not.toHaveProperty(key);
    }
  });

  it('says how the city was read', () => {
    expect(read('Mekelweg 8 Delft')[0]?.how).toBe('exact');
    expect(read('Mekelweg 8 Dleft')[0]?.how).toBe('fuzzy');
    expect(read('Mekelweg 8')[0]?.how).toBe('none');
    // Unknown words after the number are not a filter that would empty the answer.
    expect(read('Mekelweg 8 Atlantis')[0]).toMatchObject({ how: 'ignored' });
    expect(read('Mekelweg 8 Atlantis')[0]).not.toHaveProperty('city');
  });

  it('tries both readings of a leading city without a comma, the whole street first', () => {
    expect(read('Delft Mekelweg 8')).toEqual([
      { streetname: 'Delft Mekelweg', number: '8', how: 'none' },
      { streetname: 'Mekelweg', number: '8', city: 'delft', how: 'exact' },
    ]);
    expect(read('Bergen op Zoom Kerkstraat 1').map((r) => r.streetname)).toContain('Kerkstraat');
  });

  it('also reads a number-named street ("Kogge 03 2": Kogge 03, number 2)', () => {
    expect(read('Kogge 03 2 Lelystad')).toEqual([
      { streetname: 'Kogge', number: '03 2', city: 'lelystad', how: 'exact' },
      { streetname: 'Kogge 03', number: '2', city: 'lelystad', how: 'exact' },
    ]);
  });

  it('reads a street written after the number', () => {
    expect(read('8 Mekelweg Delft')).toContainEqual({
      streetname: 'Mekelweg',
      number: '8',
      city: 'delft',
      how: 'exact',
    });
  });

  it('keeps to the asked countries’ postcode shapes', () => {
    expect(read('Wetstraat 16 1000 Brussel', ['NL'])[0]).not.toHaveProperty('postcode');
    expect(read('Mekelweg 8 2628CD', ['BE'])[0]).not.toHaveProperty('postcode');
  });

  it('returns nothing without a house number, or with neither street nor postcode', () => {
    expect(read('Mekelweg Delft')).toEqual([]);
    expect(read('')).toEqual([]);
    expect(read('8')).toEqual([]);
  });
});

describe('readFreeText: house-number tails (issue 36)', () => {
  const places = new KnownCities([
    'groningen',
    'heerenveen',
    'goes',
    'elsene',
    'ukkel',
    'brussel',
    'schaarbeek',
    'jette',
  ]);
  const first = (text: string) => {
    const r = readFreeText(text, { cities: places })[0];
    return r && { ...r.query, how: r.city };
  };
  // The queries: the tail is the number's, and the city typed holds whatever the tail is read as.
  it.each([
    ['Avenue Jean et Pierre Carsoel 114 bt 3, 1180 Ukkel', '114 bt 3', 'ukkel'],
    ['Avenue Jean et Pierre Carsoel 114 bt. 3, 1180 Ukkel', '114 bt. 3', 'ukkel'],
    ['Kiekenmarkt 52 bus 2.11, 1000 Brussel', '52 bus 2.11', 'brussel'],
    ['Brits Tweedelegerlaan 26 bus F/88 Brussel', '26 bus F/88', 'brussel'],
    ['Groothertogstraat 37 bus b 2, Elsene', '37 bus b 2', 'elsene'],
    ['Pierre Timmermansstraat 49 bus 0M/H, 1090 Jette', '49 bus 0M/H', 'jette'],
    ['Scailquintstraat 35 bus 7étR Schaarbeek', '35 bus 7étR', 'schaarbeek'],
    ['goffartstraat 32a rc 1050 elsene', '32a rc', 'elsene'],
    ['kroonlaan 556 3e 1050 elsene', '556 3e', 'elsene'],
    ['dupontstraat 3 et01 1030 schaarbeek', '3 et01', 'schaarbeek'],
    ['Elizastraat 117 -1 Elsene', '117 -1', 'elsene'],
    ['Veldspaatstraat 368 -211 Groningen', '368 -211', 'groningen'],
    ['Fok 56 - 206, Heerenveen', '56 - 206', 'heerenveen'],
    ['Praediniussingel 20 - 22, Groningen', '20 - 22', 'groningen'],
    ['Populierenlaan 1 - 148, Groningen', '1 - 148', 'groningen'],
    ['Schuttershof 10 - 22, Goes', '10 - 22', 'goes'],
  ])('%s', (text, number, city) => {
    expect(first(text)).toMatchObject({ number, city, how: 'exact' });
  });

  // Register values the bulk data's tail classes missed (26 Nov 2026), each read whole now.
  describe('the misses of the bulk eval', () => {
    // Villages one typo from a floor code (Ees ~ `etes`, Arum ~ `arrm`, `ar.m`; Ens ~ `enso`) and 's-Gravenhage's
    // first word `s`: not the city when the text names a known city exactly after them.
    const withVillages = new KnownCities(['ees', 'arum', 'ens', 's gravenhage', 'elsene', 'schaarbeek', 'delft']);
    const read1 = (text: string) => readFreeText(text, { cities: withVillages })[0]?.query;
    it.each([
      ['Capronnierstraat 32 bus ETES, 1030 Schaarbeek', '32 bus ETES', 'schaarbeek'],
      ['Waterleidingsstraat 83 bus ArrM, 1050 Elsene', '83 bus ArrM', 'elsene'],
      ['Tweetorenstraat 78 bus enso, 1210 Schaarbeek', '78 bus enso', 'schaarbeek'],
      ['Paul Spaakstraat 14 bus S, 1050 Elsene', '14 bus S', 'elsene'],
      ['notelaarstraat 158 etes 1030 schaarbeek', '158 etes', 'schaarbeek'],
      ['brouwerijstraat 120 arrm 1050 elsene', '120 arrm', 'elsene'],
      ['amerikaanse straat 100 ar.m 1050 elsene', '100 ar.m', 'elsene'],
    ])('%s', (text, number, city) => {
      expect(read1(text)).toMatchObject({ number, city });
    });
    it('still reads a typo of a city after the number as the city when no city follows', () => {
      expect(read1('Mekelweg 8 Ees')).toMatchObject({ number: '8', city: 'ees' });
      expect(read1('Mekelweg 8 Etes')).toMatchObject({ number: '8', city: 'ees' });
    });

    it.each([
      // A bare four-digit box right before the postcode: the postcode is the later one.
      ['pleinlaan 2 4255 1050 elsene', '2 4255', '1050'],
      ['vaartdijk 115 1006 1070 elsene', '115 1006', '1070'],
      ['willemsstraat 14 1906 1210 schaarbeek', '14 1906', '1210'],
      // ... but a bare number after a box word or a dash is the box, the postcode after the comma.
      ['Pleinlaan 2 b 5533, 1050 Elsene', '2 b 5533', '1050'],
      ['Plattedijk 25A - 6317, 8531 PB Delft', '25A - 6317', '8531 PB'],
    ])('%s', (text, number, postcode) => {
      expect(read1(text)).toMatchObject({ number, postcode });
    });

    it('reads `b` and a four-digit number with no postcode after them as a box and as the house letter and postcode', () => {
      // The register: Voorspoedstraat 11B, 1080 Sint-Jans-Molenbeek, and no box 1080: the index decides.
      const molenbeek = new KnownCities(['sint jans molenbeek', 'elsene']);
      const readings = readFreeText('voorspoedstraat 11 b 1080 sint-jans-molenbeek', { cities: molenbeek });
      expect(readings.map((r) => r.query)).toEqual([
        { streetname: 'voorspoedstraat', number: '11 b 1080', city: 'sint jans molenbeek' },
        { streetname: 'voorspoedstraat', number: '11 b', postcode: '1080', city: 'sint jans molenbeek' },
      ]);
      // A postcode typed after them: `b 5533` is the box alone.
      expect(read1('Pleinlaan 2 b 5533, 1050 Elsene')).toMatchObject({ number: '2 b 5533', postcode: '1050' });
      expect(readFreeText('Pleinlaan 2 b 5533, 1050 Elsene', { cities: molenbeek })).toHaveLength(1);
    });

    it('reads a box the register writes after a dot (`.02`)', () => {
      expect(read1('herkoliersstraat 8 .02 1081 elsene')).toMatchObject({ number: '8 .02', postcode: '1081' });
    });

    // Lelystad's and Almere's number-named streets ("Jol 11") with a range or an addition after the number.
    const almere = new KnownCities(['lelystad', 'almere']);
    const all = (text: string) => readFreeText(text, { cities: almere }).map((r) => r.query);
    it.each([
      ['Jol 11 35 - 39, Lelystad', 'Jol 11', '35 - 39', 'lelystad'],
      ['Kogge 05 10 - 14, Lelystad', 'Kogge 05', '10 - 14', 'lelystad'],
      ['Randstad 22 42G - 7, Almere', 'Randstad 22', '42G - 7', 'almere'],
      ['randstad 22 42g 9 almere', 'randstad 22', '42g 9', 'almere'],
    ])('%s', (text, streetname, number, city) => {
      expect(all(text)).toContainEqual({ streetname, number, city });
    });
  });

  it('keeps the city typed after words it cannot place', () => {
    expect(first('Populierenlaan 1 ~ 148, Groningen')).toMatchObject({ number: '1', city: 'groningen' });
    expect(first('Vismarkt 12 bovenverdieping achter Groningen')).toMatchObject({ number: '12', city: 'groningen' });
  });
});

describe('KnownCities', () => {
  it('matches a name exactly after normalisation, or within one or two edits by length', () => {
    expect(cities.match(["'s-Gravenhage"])).toEqual({ key: 's gravenhage', distance: 0 });
    expect(cities.match(['Dleft'])).toEqual({ key: 'delft', distance: 1 });
    expect(cities.match(['Rotterdma'])).toEqual({ key: 'rotterdam', distance: 1 });
    expect(cities.match(['Rottrdma'])).toEqual({ key: 'rotterdam', distance: 2 });
    // Short names tolerate no typo; the first letter is never guessed.
    expect(cities.match(['Ulk'])).toBeUndefined();
    expect(cities.match(['Telft'])).toBeUndefined();
    expect(cities.startsWith('Den')).toBe(true);
    expect(cities.startsWith('Haag')).toBe(false);
  });
});

describe('mergeReadings', () => {
  const answer = (id: string, confidence: number) => ({ doc: { id }, confidence });
  it('orders by confidence, keeps each address once and at most `size`', () => {
    const merged = mergeReadings(
      [
        [answer('a', 0.9), answer('b', 0.5)],
        [answer('c', 1), answer('a', 0.9), answer('d', 0.5)],
      ],
      3,
    );
    expect(merged.map((m) => m.doc.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('readingsForNextTier', () => {
  const graded = (...confidences: number[]) => confidences.map((confidence) => ({ confidence }));

  it('sends the exact tier for every reading: nothing is answered yet', () => {
    expect(readingsForNextTier([[], [], []])).toEqual([0, 1, 2]);
  });

  it('sends the fuzzy tiers for no reading once one is answered beyond what they can find', () => {
    // "Delft Mekelweg 8": street "Delft Mekelweg" finds nothing exactly, street Mekelweg in Delft answers.
    expect(readingsForNextTier([[], graded(1)])).toEqual([]);
    expect(readingsForNextTier([graded(0.97), []])).toEqual([]);
    // A free-text city read through a typo (0.95) is still above every look-alike street.
    expect(readingsForNextTier([[], graded(0.95, 0.5)])).toEqual([]);
  });

  it('sends no fuzzy tier once an answer reaches the ceiling no look-alike street reaches (0.9)', () => {
    // "Delft Mekelweg 8 - 10": street Mekelweg in Delft answers 8 without the addition 10 (another suffix, 0.9); a
    // look-alike street is at least one edit away and grades below 0.9, so "Delft Mekelweg" is not looked for.
    expect(readingsForNextTier([[], graded(0.9), []])).toEqual([]);
    expect(readingsForNextTier([graded(0.9, 0.5), []])).toEqual([]);
  });

  it('sends the fuzzy tiers for the readings the exact tier missed while no answer is confident', () => {
    // An ignored postcode on top of another suffix (0.81): a look-alike street of another reading may rank higher.
    expect(readingsForNextTier([[], graded(0.81), []])).toEqual([0, 2]);
    expect(readingsForNextTier([graded(0.63), []])).toEqual([1]);
    // A typo in the only reading's street: found through the fuzzy tier.
    expect(readingsForNextTier([[]])).toEqual([0]);
  });
});

describe('readFreeText: every form people write (issue 49)', () => {
  const known = new KnownCities(
    ['ukkel', 'brussel', 'almere', 'delft', 'uithuizen', 'elsene'],
    new Map([
      ['ukkel', { nl: 'Ukkel', fr: 'Uccle' }],
      ['brussel', { nl: 'Brussel', fr: 'Bruxelles' }],
      ['elsene', { nl: 'Elsene', fr: 'Ixelles' }],
    ]),
  );
  const first = (text: string) => readFreeText(text, { cities: known })[0];
  it.each([
    // The number first, as French and Belgian envelopes write it, with and without commas.
    ['40 Avenue De Fré, 1180 Uccle', { streetname: 'Avenue De Fré', number: '40', postcode: '1180', city: 'ukkel' }],
    ['40 Avenue De Fré 1180 Uccle', { streetname: 'Avenue De Fré', number: '40', postcode: '1180', city: 'ukkel' }],
    ['40 avenue de fré uccle', { streetname: 'avenue de fré', number: '40', city: 'ukkel' }],
    ['99 Rue des Harengs, 1000 Bruxelles', { streetname: 'Rue des Harengs', number: '99', postcode: '1000' }],
    // A four-digit number first, as long Brussels roads have them, before the postcode.
    ['1595 Chaussée de Waterloo, 1180 Uccle', { streetname: 'Chaussée de Waterloo', number: '1595', postcode: '1180' }],
    ['1595 Waterloosesteenweg 1180 Ukkel', { streetname: 'Waterloosesteenweg', number: '1595', postcode: '1180' }],
    ['12 - 14 Rue Haute, 1000 Bruxelles', { streetname: 'Rue Haute', number: '12 - 14', postcode: '1000' }],
    // The country in any language, at the end.
    ['Rue Neuve 16, 1000 Bruxelles, Belgique', { streetname: 'Rue Neuve', number: '16', city: 'brussel' }],
    ['Rue Neuve 16 1000 Bruxelles België', { streetname: 'Rue Neuve', number: '16', city: 'brussel' }],
    ['Contrabasweg 132, 1312 WR Almere, The Netherlands', { streetname: 'Contrabasweg', number: '132' }],
    ['Contrabasweg 132, 1312 WR Almere, NL', { streetname: 'Contrabasweg', number: '132', city: 'almere' }],
    // A locality in brackets: a known area is the city, anything else is dropped.
    ['Rue de la Liberté(RUM) 12, 1000 Bruxelles', { streetname: 'Rue de la Liberté', number: '12', city: 'brussel' }],
    ['Mekelweg 8 (Delft)', { streetname: 'Mekelweg', number: '8', city: 'delft' }],
    // City first, postcode and number.
    ['Uithuizen, Departementsstraat 73', { streetname: 'Departementsstraat', number: '73', city: 'uithuizen' }],
    ['9411 xj 3', { number: '3', postcode: '9411 xj' }],
    ['4353AL 4', { number: '4', postcode: '4353AL' }],
  ])('%s', (text, expected) => {
    expect(first(text)?.query).toMatchObject(expected);
  });

  it('reads a number first before a street named with a number both ways ("55 Botter 33", Lelystad)', () => {
    const lelystad = new KnownCities(['lelystad']);
    expect(readFreeText('55 Botter 33, Lelystad', { cities: lelystad }).map((r) => r.query)).toContainEqual({
      streetname: 'Botter 33',
      number: '55',
      city: 'lelystad',
    });
  });

  it('reads a no-number mark as a street, not an address', () => {
    for (const text of ['Haringstraat zn, 1000 Brussel', 'Rue des Harengs s/n, Bruxelles', 'Kerkstraat - Delft']) {
      expect(readFreeText(text, { cities: known })).toEqual([]);
    }
  });

  it('never drops the words after a leading number for the postcode and number alone', () => {
    const readings = readFreeText('40 Avenue De Fré, 1180 Uccle', { cities: known });
    expect(readings.every((r) => r.query.streetname)).toBe(true);
  });

  it('says when words beside the city were ignored', () => {
    expect(first('Vismarkt 12 bovenverdieping achter Delft')?.city).toBe('partial');
    expect(first('Mekelweg 8, 2628 CD Delft')?.city).toBe('exact');
  });
});
