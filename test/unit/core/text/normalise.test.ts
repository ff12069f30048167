import { describe, expect, it } from 'vitest';
import {
  nameTokens,
  normaliseStreet,
  normaliseText,
  streetKey,
  streetKeyReadings,
} from '../../../../core/text/normalise.js';

describe('normaliseText', () => {
  it.each([
    ["'s-Gravenhage", 's gravenhage'],
    ['’s-Hertogenbosch', 's hertogenbosch'],
    ['‘t Hoekje', 't hoekje'],
    ['`s-Gravenzande', 's gravenzande'],
    ['´s-Heerenberg', 's heerenberg'],
    ['Städtle', 'stadtle'],
    ['  Oude  Delft ', 'oude delft'],
    ['Straße', 'strasse'],
    ['Ærø', 'aero'],
    ['Søndergade', 'sondergade'],
    ['Łódź', 'lodz'],
    ['Œuvre', 'oeuvre'],
    ['Hammarskjöldstraat', 'hammarskjoldstraat'],
    ['Curaçaostraat', 'curacaostraat'],
    ['Mw. Bähler-Boermalaan', 'mw bahler boermalaan'],
    ['ĲSSELMEER', 'ijsselmeer'],
    ['Ｆｕｌｌ', 'full'],
    ['A.H.G. Fokkerstraat', 'a h g fokkerstraat'],
    ['Hoogerwerfsweg "De Tong"', 'hoogerwerfsweg de tong'],
    ['Straat (oost), 1/2', 'straat oost 1 2'],
    ['Kerk–straat — Noord', 'kerk straat noord'],
    ['d’Ursel', 'd ursel'],
    ['\tTab\nNewline\u00a0nbsp ', 'tab newline nbsp'],
    ['Москва', 'москва'],
    ['', ''],
    ['  ', ''],
    ['.,-', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const s of ["'s-Gravenhage", 'Städtle', 'Ærø', 'İstanbul', 'Ｆｕｌｌ', 'x½y']) {
      const once = normaliseText(s);
      expect(normaliseText(once)).toBe(once);
    }
  });
});

describe('normaliseStreet', () => {
  it.each([
    // whole-token titles
    ['Burg. Jamessingel', 'burgemeester jamessingel'],
    ['Burg Jamessingel', 'burgemeester jamessingel'],
    ['Prof. Schermerhornstraat', 'professor schermerhornstraat'],
    ['Prof Mekelstraat', 'professor mekelstraat'],
    ['Dr. Schaepmanstraat', 'doctor schaepmanstraat'],
    ['St. Jorisweg', 'sint jorisweg'],
    ['St-Vincentiusstraat', 'sint vincentiusstraat'],
    ['Mr. Pieter Moggestraat', 'meester pieter moggestraat'],
    ['Ir. Lelystraat', 'ingenieur lelystraat'],
    ['Jhr. Mr. de Casembrootstraat', 'jonkheer meester de casembrootstraat'],
    ['Gen. C.J. Snijdersweg', 'generaal c j snijdersweg'],
    ['Ds. Boersmastraat', 'dominee boersmastraat'],
    ['Mgr. Bekkerspad', 'monseigneur bekkerspad'],
    ['Weth. Camphuislaan', 'wethouder camphuislaan'],
    ['Gebr. Bollegraafstraat', 'gebroeders bollegraafstraat'],
    ['Prof. Dr. J.C. Schoutelaan', 'professor doctor j c schoutelaan'],
    // Koning/Koningin and Prins/Prinses depend on the name that follows
    ['Kon. Julianastraat', 'koningin julianastraat'],
    ['Kon Beatrixstraat', 'koningin beatrixstraat'],
    ['Kon. Willem III-straat', 'koning willem iii straat'],
    ['Pr. Hendrikstraat', 'prins hendrikstraat'],
    ['Pr Wilhelminastraat', 'prinses wilhelminastraat'],
    ['Pr. Willem-Alexanderstraat', 'prins willem alexanderstraat'],
    // particles
    ['v.d. Mondestraat', 'van der mondestraat'],
    ['v/d Mondestraat', 'van der mondestraat'],
    ['vd Duyn v Maasdamstr', 'van der duyn van maasdamstraat'],
    ['Burg v Roijenstr Oost', 'burgemeester van roijenstraat oost'],
    ['v. Brakelstraat', 'van brakelstraat'],
    ['D.H. v.d. Scheerstraat', 'd h van der scheerstraat'],
    // ordinals
    ['1e Jan Steenstraat', 'eerste jan steenstraat'],
    ['St. Vitusholt 2e laan', 'sint vitusholt tweede laan'],
    // street types glued to the end of a word
    ['Woogstr.', 'woogstraat'],
    ['woogstr', 'woogstraat'],
    ['Brinkstr', 'brinkstraat'],
    ['Julianaln', 'julianalaan'],
    ['Marktpln', 'marktplein'],
    ['Oudegr', 'oudegracht'],
    ['Havenkd', 'havenkade'],
    ['Dorpswg', 'dorpsweg'],
    ['Meindert vd Thijnensngl', 'meindert van der thijnensingel'],
    // a stem that happens to end in a two-letter abbreviation (-ln, -gr, -kd, -wg) still expands
    ['Lincolnstr.', 'lincolnstraat'],
    ['Kölnstr', 'kolnstraat'],
    ['Abraham Lincolnln', 'abraham lincolnlaan'],
    ['J d Bosch Kemperplnts', 'j d bosch kemperplantsoen'],
    // street types as a separate token after a word
    ['Woog str', 'woog straat'],
    ['Woog str.', 'woog straat'],
    ['Oude Gr', 'oude gracht'],
    ['Juliana ln', 'juliana laan'],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseStreet(input)).toBe(expected);
  });

  // Full names, and abbreviation look-alikes where expanding would be a guess.
  it.each([
    'Straatweg',
    'Laan van Altena',
    'Stationsplein',
    'Gracht',
    'Oude Delft',
    'Sint Sebastiaansbrug',
    'Burgemeester Jamessingel',
    'Van Leeuwenhoeksingel',
    'Kade',
    'Wegastraat',
    'Plantsoen',
    'Vlaamingstraat',
    'Lange Geer',
    'Oranje Plantage',
    'Weg',
    'Laan',
    'Str',
    'Burg',
    'De Burg',
    'Den Burg Noord',
    'Korte Burg',
    'Luit',
    'Balkan',
    'Köln',
    'Mgr',
    'Gr. Markt',
    'Rijksstrwg',
    'C.V. Ramanstraat',
    'J.V. Sprengerlaan',
    'V N laan',
    'Martinus V-straat',
    'Ruiten A kanaal Oost V',
    'H. Hartstraat',
    'Kerkstraat 2e',
    'Hoofdkanaal WZ',
  ])('keeps %j as normaliseText gives it', (input) => {
    expect(normaliseStreet(input)).toBe(normaliseText(input));
  });

  it.each([
    'Burg. Jamessingel',
    'Burg v v Roijenstr',
    'v v x',
    'v d',
    'x v d',
    'v d v d x',
    'Prof. Dr. Ir. Mr. Jhr. St. X',
    'Kon. Pr. Julianastraat',
    'Woog str str',
    'Oudegrgr',
    'Rijksstrwg',
    'Burg Burg Burg',
    'C.V. Ramanstraat',
    'Martinus V str',
    '1e 2e 3e',
    "'s-Gravendijkwal",
    'J v Oldenbarneveltstraat',
  ])('is idempotent for %j', (input) => {
    const once = normaliseStreet(input);
    expect(normaliseStreet(once)).toBe(once);
  });
});

describe('streetKey', () => {
  it.each([
    ["'s-Gravendijkwal", 'S Gravendijkwal'],
    ["'s-Gravendijkwal", 's gravendijkwal'],
    ['Van der Mondestraat', 'Vandermondestraat'],
    ['v.d. Mondestraat', 'Van der Mondestraat'],
    ['Burg. Jamessingel', 'Burgemeester Jamessingel'],
    ['Woogstr.', 'Woogstraat'],
    ['Woog str', 'Woogstraat'],
    ['Prof. Schermerhornstraat', 'Professor Schermerhornstraat'],
    ['Dr. Schaepmanstraat', 'Doctor Schaepmanstraat'],
    ['St. Jorisweg', 'Sint Jorisweg'],
    ['St.-Jorisweg', 'Sint-Jorisweg'],
    ['Kon. Julianastraat', 'Koningin Julianastraat'],
    ['1e Jan Steenstraat', 'Eerste Jan Steenstraat'],
    ['Hammarskjöldstraat', 'Hammarskjoldstraat'],
    ['Oude  Delft', 'oude-delft'],
  ])('%j === %j', (a, b) => {
    expect(streetKey(a)).toBe(streetKey(b));
  });

  it.each([
    ["'s-Gravendijkwal", 'sgravendijkwal'],
    ['Woogstr.', 'woogstraat'],
    ['Burg. Jamessingel', 'burgemeesterjamessingel'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(streetKey(input)).toBe(expected);
  });

  it.each([
    ['Rotterdamseweg', 'Rotterdamsestraat'],
    ['Burg', 'Burgemeester'],
    ['Gr. Markt', 'Gracht Markt'],
    ['C.V. Ramanstraat', 'C. van Ramanstraat'],
  ])('%j !== %j', (a, b) => {
    expect(streetKey(a)).not.toBe(streetKey(b));
  });
});

describe('streetKeyReadings', () => {
  it.each([
    ['Albert Cuypln', 'albertcuyplein', ['albertcuyplaan']],
    ['Marktpln', 'marktplein', ['marktplaan']],
    [
      'Weg vd Buitenlandse Pers',
      'wegvanderbuitenlandsepers',
      ['wegvandebuitenlandsepers', 'wegvandenbuitenlandsepers'],
    ],
    ['v.d. Mondestraat', 'vandermondestraat', ['vandemondestraat', 'vandenmondestraat']],
    ['J v Oldenbarneveltstraat', 'jvoldenbarneveltstraat', ['jvanoldenbarneveltstraat']],
    ["V 't Hoffstr", 'vthoffstraat', ['vanthoffstraat']],
    ['Kon. Julianastraat', 'koninginjulianastraat', ['koningjulianastraat']],
    ['Pr. Hendrikstraat', 'prinshendrikstraat', ['prinseshendrikstraat']],
    ['Rijksstrwg', 'rijksstrwg', ['rijksstrweg']],
  ])('%j: primary %j, alternatives %j', (input, primary, alternatives) => {
    expect(streetKey(input)).toBe(primary);
    expect(streetKeyReadings(input)).toEqual({ key: primary, alternatives });
  });

  it.each(['Mekelweg', 'Van der Mondestraat', 'Burgemeester Jamessingel', 'Woogstr.', 'Lincolnstr', 'Oude Delft', ''])(
    '%j has none',
    (input) => {
      expect(streetKeyReadings(input)).toEqual({ key: streetKey(input), alternatives: [] });
    },
  );

  it('never repeats the primary key', () => {
    for (const input of ['Albert Cuypln', 'v d v d x', 'Burg v v Roijenstr', 'Prof. Dr. Ir. Mr. Jhr. St. X']) {
      expect(streetKeyReadings(input).alternatives).not.toContain(streetKey(input));
    }
  });
});

describe('nameTokens', () => {
  it.each([
    ["'s-Gravenhage", ['s gravenhage', 'gravenhage']],
    ['Den Haag', ['den haag', 'haag']],
    ['Amsterdam', ['amsterdam']],
    ['Sint-Job-in-’t-Goor', ['sint job in t goor', 'job in t goor', 'in t goor', 't goor', 'goor']],
    ['Haag Den Haag', ['haag den haag', 'den haag', 'haag']],
    ['Burg. Jamessingel', ['burg jamessingel', 'jamessingel']],
    ['', []],
    ['  ', []],
  ])('%j -> %j', (input, expected) => {
    expect(nameTokens(input)).toEqual(expected);
  });

  // How the API uses them: a filter matches when it is a prefix of one of the tokens.
  const matches = (filter: string, name: string): boolean => {
    const f = normaliseText(filter);
    return nameTokens(name).some((t) => t.startsWith(f));
  };

  it.each([
    ['amst', 'Amsterdam', true],
    ['gravenhage', "'s-Gravenhage", true],
    ["'s-grav", "'s-Gravenhage", true],
    ['den h', 'Den Haag', true],
    ['haag', 'Den Haag', true],
    ['Den Haag', 'Den Haag', true],
    ['aag', 'Den Haag', false],
    ['dam', 'Amsterdam', false],
    ['haag den', 'Den Haag', false],
  ])('filter %j on %j -> %s', (filter, name, expected) => {
    expect(matches(filter, name)).toBe(expected);
  });
});

describe('the abbreviations registries and people write (issue 49): one table, each entry', () => {
  // Each abbreviated form reads as the register's full name: the same street key.
  it.each([
    ['Av. Maréchal Joffre', 'Avenue Maréchal Joffre'],
    ['Av Franz Guillaume', 'Avenue Franz Guillaume'],
    ['Ave Louise', 'Avenue Louise'],
    ['Bd du Régent', 'Boulevard du Régent'],
    ['Bld. Anspach', 'Boulevard Anspach'],
    ['Bvd Lambermont', 'Boulevard Lambermont'],
    ['Boul. Général Jacques', 'Boulevard Général Jacques'],
    ['Chée de Wavre', 'Chaussée de Wavre'],
    ['Ch. de Wavre', 'Chaussée de Wavre'],
    ['Pl. Sainte-Croix', 'Place Sainte-Croix'],
    ['Sq. Ambiorix', 'Square Ambiorix'],
    ['Imp. du Pré', 'Impasse du Pré'],
    ['Gal. du Roi', 'Galerie du Roi'],
    ['Rte de Lennik', 'Route de Lennik'],
    ['Leuvensestwg', 'Leuvensesteenweg'],
    ['Brusselse Stwg.', 'Brusselse Steenweg'],
    ['Kerkstr.', 'Kerkstraat'],
    ['Julianaln', 'Julianalaan'],
    ['Ln van de Bork', 'Laan van de Bork'],
    ['Ln der V.O.C.', 'Laan der V.O.C.'],
    ['Burg. Jamessingel', 'Burgemeester Jamessingel'],
    ['Rue Ste-Marie', 'Rue Sainte-Marie'],
  ])('%j reads as %j', (abbreviated, full) => {
    expect(streetKey(abbreviated)).toBe(streetKey(full));
  });

  // Where an abbreviation has two readings, the other is tried too (the exact tier asks for both in one request).
  it.each([
    ['Ch. du Vieux Moulin', 'Chemin du Vieux Moulin'],
    ['Rue St-Lazare', 'Rue Saint-Lazare'],
    ['St-Gillisvoorplein', 'Sint-Gillisvoorplein'],
  ])('%j may be %j', (abbreviated, full) => {
    const { key, alternatives } = streetKeyReadings(abbreviated);
    expect([key, ...alternatives]).toContain(streetKey(full));
  });

  it('touches a type word only in front of the name, and never alone', () => {
    expect(streetKey('Place')).toBe('place');
    expect(normaliseStreet('Av')).toBe('av');
    expect(normaliseStreet('Rue du Pl')).toBe('rue du pl');
    expect(normaliseStreet('Jan Av Straat')).toBe('jan av straat');
  });
});

describe('leading street types (issue 49)', () => {
  it('leaves a Dutch name that ends in its own type alone', () => {
    expect(normaliseStreet('Ch de Bourbonweg')).toBe('ch de bourbonweg');
  });
});
