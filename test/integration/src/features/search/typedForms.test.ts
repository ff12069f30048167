/**
 * Issue 49: one reading of a typed text through every door, on the sample (Delft and a Brussels slice) in a real
 * Elasticsearch. Each form people write finds the address first in the search box, among the first five of the
 * type-ahead (typed in full and cut right behind the number), and first in the dialects' free and structured forms;
 * a number the register lacks answers the street first; an abbreviated street type reads as the full name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../../support/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

async function get(path: string, params: Record<string, string>) {
  const res = await api.call('GET', `${path}?${new URLSearchParams(params)}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body as Record<string, unknown>[];
}

/** Each form of two addresses of the sample, with what must come back. */
const FORMS: [form: string, text: string, cut: string, label: RegExp][] = [
  ['street number city', 'Mekelweg 8 Delft', 'Mekelweg 8', /^Mekelweg 8, 2628CD Delft$/],
  ['postcode number', '2628 cd 8', '2628 cd 8', /^Mekelweg 8, 2628CD Delft$/],
  ['glued postcode number', '2628CD 8', '2628CD 8', /^Mekelweg 8, 2628CD Delft$/],
  ['city first', 'Delft, Mekelweg 8', 'Delft, Mekelweg 8', /^Mekelweg 8, 2628CD Delft$/],
  ['street number, postcode city', 'Mekelweg 8, 2628 CD Delft', 'Mekelweg 8', /^Mekelweg 8, 2628CD Delft$/],
  ['envelope with country', 'Mekelweg 8, 2628 CD Delft, Nederland', 'Mekelweg 8', /^Mekelweg 8, 2628CD Delft$/],
  ['french city', 'Rue Neuve 16, 1000 Bruxelles', 'Rue Neuve 16', /^Rue Neuve 16, 1000 Bruxelles$/],
  ['dutch street, french city', 'Nieuwstraat 16, 1000 Bruxelles', 'Nieuwstraat 16', /^Nieuwstraat 16, 1000 Brussel$/],
  ['number first', '16 Rue Neuve, 1000 Bruxelles', '16 Rue Neuve', /^Rue Neuve 16, 1000 Bruxelles$/],
  ['number first, no comma', '16 Rue Neuve 1000 Bruxelles', '16 Rue Neuve', /^Rue Neuve 16, 1000 Bruxelles$/],
  ['envelope in french', '16 Rue Neuve, 1000 Bruxelles, Belgique', '16 Rue Neuve', /^Rue Neuve 16, 1000 Bruxelles$/],
  ['abbreviated type', "Av. d'Italie 12, 1050 Ixelles", "Av. d'Italie 12", /^Avenue d'Italie 12/],
  ['locality in brackets', 'Rue Neuve(BXL) 16, 1000 Bruxelles', 'Rue Neuve(BXL) 16', /^Rue Neuve 16, 1000 Bruxelles$/],
];

describe('every form, every door (issue 49)', () => {
  it.each(FORMS)('%s: /search answers the address first', async (_, text, __, label) => {
    const [first] = await get('/search', { q: text, size: '5' });
    expect(first?.type).toBe('address');
    expect(first?.label).toMatch(label);
    expect(first?.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it.each(FORMS)(
    '%s: the type-ahead offers it, typed in full and cut behind the number',
    async (_, text, cut, label) => {
      for (const q of [text, cut]) {
        const labels = (await get('/autocomplete', { q, size: '5' })).map((s) => String(s.label));
        expect(
          labels.some((l) => label.test(l)),
          `${q}: ${labels.join(' | ')}`,
        ).toBe(true);
      }
    },
  );

  it.each(FORMS)('%s: Nominatim and Pelias answer the address first', async (_, text, __, label) => {
    const [nominatim] = await get('/nominatim/search', { q: text, format: 'jsonv2', limit: '3' });
    expect(nominatim?.type).toBe('house');
    const [pelias] = (await api.call('GET', `/pelias/v1/search?${new URLSearchParams({ text })}`)).body.features;
    expect(pelias.properties.layer).toBe('address');
    expect(String(pelias.properties.label)).toMatch(new RegExp(label.source.replace(/^\^|\$$/g, '').split(',')[0]!));
  });

  it.each(FORMS)('%s: Photon answers the address first', async (_, text) => {
    const photon = (await api.call('GET', `/photon/api?${new URLSearchParams({ q: text, limit: '3' })}`)).body;
    expect(photon.features[0]?.properties.type).toBe('house');
  });

  it.each([
    ['/pelias/v1/search/structured', { address: '16 Rue Neuve', postalcode: '1000', locality: 'Bruxelles' }],
    ['/pelias/v1/search/structured', { address: 'Mekelweg 8', locality: 'Delft', country: 'Nederland' }],
    ['/photon/structured', { street: 'Rue Neuve', housenumber: '16', postcode: '1000', city: 'Bruxelles' }],
    ['/photon/structured', { street: '8 Mekelweg', city: 'Delft', countrycode: 'NL' }],
  ])('%s %j: the structured form is read as the free text is', async (path, params) => {
    const body = (await api.call('GET', `${path}?${new URLSearchParams(params)}`)).body;
    const [first] = body.features;
    expect(first.properties.layer ?? first.properties.type).toMatch(/^(address|house)$/);
    expect(String(first.properties.label ?? first.properties.street)).toMatch(/Rue Neuve|Mekelweg/);
  });

  it('answers nothing for a structured country the service holds no addresses of', async () => {
    const pelias = await api.call('GET', '/pelias/v1/search/structured?address=Mekelweg%208&country=DEU');
    expect(pelias.body.features).toEqual([]);
    const photon = await api.call('GET', '/photon/structured?street=Mekelweg&housenumber=8&countrycode=DE');
    expect(photon.body.features).toEqual([]);
    expect((await api.call('GET', '/photon/structured?limit=2')).status).toBe(400);
  });

  it('reads the Nominatim structured form with the number first in `street`', async () => {
    const [first] = await get('/nominatim/search', {
      street: '16 Rue Neuve',
      postalcode: '1000',
      city: 'Bruxelles',
      format: 'jsonv2',
    });
    expect(first).toMatchObject({ type: 'house', name: 'Rue Neuve 16' });
  });
});

describe('a number the register does not have (issue 49)', () => {
  it.each(['Rue Neuve 999, 1000 Bruxelles', '999 Rue Neuve, 1000 Bruxelles', 'Nieuwstraat 999 Brussel'])(
    '%s: the street first, saying the number did not match; the nearest number after it',
    async (text) => {
      const [first, second] = await get('/search', { q: text, size: '5' });
      expect(first).toMatchObject({ type: 'street', unmatched: ['number'] });
      expect(first?.confidence).toBeLessThan(1);
      expect(second).toMatchObject({ type: 'address', match: { number: 'nearest' } });
    },
  );

  it('is the street in the dialects too', async () => {
    const [nominatim] = await get('/nominatim/search', { q: 'Rue Neuve 999, 1000 Bruxelles', format: 'jsonv2' });
    expect(nominatim?.addresstype).toBe('road');
    const pelias = (await api.call('GET', `/pelias/v1/search?text=${encodeURIComponent('Rue Neuve 999, Bruxelles')}`))
      .body.features;
    expect(pelias[0].properties.layer).toBe('street');
  });

  it.each(['Nieuwstraat zn, 1000 Brussel', 'Rue Neuve s/n, Bruxelles'])(
    '%s: a no-number mark reads as the street',
    async (text) => {
      const [first] = await get('/search', { q: text, size: '3' });
      expect(first).toMatchObject({ type: 'street' });
      expect(first).not.toHaveProperty('unmatched');
    },
  );
});
