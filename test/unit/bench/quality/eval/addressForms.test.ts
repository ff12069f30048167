import { describe, expect, it } from 'vitest';
import {
  abbreviable,
  abbreviatedStreet,
  ADDRESS_FORMS,
  type FormAddress,
  formTexts,
  spacedPostcode,
} from '../../../../../bench/quality/eval/addressForms.js';
import { Rng } from '../../../../../bench/quality/eval/rng.js';

const almere: FormAddress = {
  streetname: 'Contrabasweg',
  number: '132',
  suffix: '',
  postcode: '1312WR',
  city: 'Almere',
};
const uccle: FormAddress = {
  streetname: 'De Frélaan',
  number: '40',
  suffix: '',
  postcode: '1180',
  city: 'Ukkel',
  streetFr: 'Avenue De Fré',
  cityFr: 'Uccle',
};

const byForm = (a: FormAddress, seed = 'x') => new Map(formTexts(a, new Rng(seed)).map((t) => [t.form, t]));

describe('the forms people type an address in (the forms eval)', () => {
  it('writes a Dutch address in every form but the Brussels and abbreviated ones, the postcode spaced', () => {
    const forms = byForm(almere);
    const notHere = ['french city', 'dutch street, french city', 'abbreviated street type'];
    expect([...forms.keys()]).toEqual(ADDRESS_FORMS.filter((f) => !notHere.includes(f)));
    expect(forms.get('street number city')).toMatchObject({ text: 'Contrabasweg 132 Almere', cut: 'Contrabasweg 132' });
    expect(forms.get('city, street number')).toMatchObject({ text: 'Almere, Contrabasweg 132' });
    expect(forms.get('street number, postcode city')).toMatchObject({
      text: 'Contrabasweg 132, 1312 WR Almere',
      cut: 'Contrabasweg 132',
      gives: { street: true, postcode: true, city: true },
    });
    expect(forms.get('number first')).toMatchObject({
      text: '132 Contrabasweg, 1312 WR Almere',
      cut: '132 Contrabasweg',
    });
    expect(forms.get('envelope with country')!.text).toMatch(
      /^Contrabasweg 132, 1312 WR Almere, (Nederland|Netherlands)$/,
    );
    expect(forms.get('locality in brackets')!.text).toMatch(/^Contrabasweg 132 ?\([A-Z]{3}\), 1312 WR Almere$/);
    expect(forms.get('no-number marker')).toMatchObject({ wants: 'street' });
    expect(forms.get('no-number marker')!.text).toMatch(/^Contrabasweg (zn|z\/n|s\/n|-), 1312 WR Almere$/);
  });

  it('types the postcode and number in lower case, glued or spaced, naming no street nor city', () => {
    const texts = new Set(
      Array.from({ length: 20 }, (_, i) => byForm({ ...almere, suffix: 'A' }, `s${i}`).get('postcode number')!.text),
    );
    expect(texts).toEqual(new Set(['1312wr 132a', '1312 wr 132a']));
    expect(byForm(almere).get('postcode number')!.gives).toEqual({ street: false, postcode: true, city: false });
  });

  it('writes no postcode-number form for a Belgian postcode (two numbers)', () => {
    expect(byForm(uccle).has('postcode number')).toBe(false);
  });

  it('writes Brussels in French, and the Dutch street with the French city', () => {
    const forms = byForm(uccle);
    expect(forms.get('french city')).toMatchObject({
      text: 'Avenue De Fré 40, 1180 Uccle',
      cut: 'Avenue De Fré 40',
      language: 'fr',
    });
    expect(forms.get('dutch street, french city')).toMatchObject({ text: 'De Frélaan 40, 1180 Uccle' });
    // Every other form in French or in Dutch, the seed deciding; both occur over seeds.
    const numberFirst = new Set(Array.from({ length: 20 }, (_, i) => byForm(uccle, `s${i}`).get('number first')!.text));
    expect(numberFirst).toEqual(new Set(['40 Avenue De Fré, 1180 Uccle', '40 De Frélaan, 1180 Ukkel']));
    const envelopes = new Set(
      Array.from({ length: 40 }, (_, i) => byForm(uccle, `s${i}`).get('envelope with country')!.text),
    );
    for (const e of envelopes) {
      expect([
        'Avenue De Fré 40, 1180 Uccle, Belgique',
        'Avenue De Fré 40, 1180 Uccle, Belgium',
        'De Frélaan 40, 1180 Ukkel, België',
        'De Frélaan 40, 1180 Ukkel, Belgium',
      ]).toContain(e);
    }
  });

  it('leaves out the Dutch street with a French city where the city has one name', () => {
    const evere = { ...uccle, city: 'Evere', cityFr: 'Evere' };
    expect(byForm(evere).has('dutch street, french city')).toBe(false);
    expect(byForm(evere).get('french city')!.text).toBe('Avenue De Fré 40, 1180 Evere');
  });

  it('shortens the street-type words the issue lists, where people write them', () => {
    const shortened = (name: string) =>
      new Set(Array.from({ length: 30 }, (_, i) => abbreviatedStreet(name, new Rng(`a${i}`))?.text));
    expect(shortened('Avenue Maréchal Joffre')).toEqual(new Set(['Av. Maréchal Joffre', 'Av Maréchal Joffre']));
    expect(shortened('Boulevard du Régent')).toEqual(new Set(['Bd du Régent', 'Bld du Régent']));
    expect(shortened('Chaussée de Waterloo')).toEqual(new Set(['Chée de Waterloo', 'Ch. de Waterloo']));
    expect(shortened('Place Flagey')).toEqual(new Set(['Pl. Flagey']));
    expect(shortened('Square Ambiorix')).toEqual(new Set(['Sq. Ambiorix']));
    expect(shortened('Waterloosesteenweg')).toEqual(new Set(['Waterloosestwg.']));
    expect(shortened('Departementsstraat')).toEqual(new Set(['Departementsstr.']));
    expect(shortened('Laan van Meerdervoort')).toEqual(new Set(['Ln van Meerdervoort']));
    expect(shortened('Rue Sainte-Marie')).toEqual(new Set(['Rue Ste-Marie']));
    expect(shortened('Sint-Jansplein')).toEqual(new Set(['St-Jansplein']));
    expect(shortened('Burgemeester Van Roystraat')).toEqual(
      new Set(['Burg. Van Roystraat', 'Burgemeester Van Roystr.']),
    );
    // No abbreviable word: no form. "Straat" alone, "Avenue" as the last word, "Placeweg" are left as they are.
    for (const name of ['Rue Neuve', 'Contrabasweg', 'Lange Straat', 'Grande Avenue', 'Placeweg'])
      expect(abbreviable(name)).toBe(false);
    expect(byForm(almere).has('abbreviated street type')).toBe(false);
  });

  it('writes the abbreviated form in the language whose name has the word', () => {
    const forms = byForm({ ...uccle, streetname: 'De Frélaan' });
    expect(forms.get('abbreviated street type')).toMatchObject({
      language: 'fr',
      cut: expect.stringMatching(/^Av\.? De Fré 40$/),
    });
    expect(forms.get('abbreviated street type')!.text).toMatch(/^Av\.? De Fré 40, 1180 Uccle$/);
  });

  it('writes a range only for a number without a suffix, the second number two on', () => {
    const range = byForm(almere).get('range')!;
    expect(range.text).toMatch(/^Contrabasweg 132[-/]134, 1312 WR Almere$/);
    expect(range.rangeTo).toBe(134);
    expect(byForm({ ...almere, suffix: 'A' }).has('range')).toBe(false);
  });

  it('draws the same texts for the same seed', () => {
    expect(formTexts(uccle, new Rng('same'))).toEqual(formTexts(uccle, new Rng('same')));
  });

  it('spaces a Dutch postcode and leaves a Belgian one', () => {
    expect(spacedPostcode('9411xj')).toBe('9411 XJ');
    expect(spacedPostcode('1000')).toBe('1000');
  });
});
