/**
 * Brussels in French and Dutch through every endpoint that matches a name, against the sample indexed into the
 * real Elasticsearch: the same address found in either language (street and city), and the names shown chosen by
 * `lang`, Accept-Language, or the language the query was written in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

const search = async (q: string, headers?: Record<string, string>) => {
  const res = await api.call('GET', `/search?q=${encodeURIComponent(q)}`, headers ? { headers } : {});
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res;
};

describe('the same Brussels address in French and Dutch', () => {
  it('/search finds Nieuwstraat 1 written in either language, city in either language', async () => {
    const ids = new Set<string>();
    for (const q of [
      'Rue Neuve 1, 1000 Bruxelles',
      'rue neuve 1 bruxelles',
      'Nieuwstraat 1 Brussel',
      'Rue Neuve 1 Brussel',
      'Nieuwstraat 1, 1000 Bruxelles',
    ]) {
      const res = await search(q);
      expect(res.body[0], q).toMatchObject({ number: '1', postcode: '1000' });
      ids.add(res.body[0].id);
    }
    expect(ids.size).toBe(1);
  });

  it('/search finds Rue de la Loi 16 (Wetstraat 16) in the centre of Brussels, written in either language', async () => {
    const ids = new Set<string>();
    for (const q of ['Rue de la Loi 16, Bruxelles', 'Wetstraat 16 Brussel', 'Wetstraat 16, Brussel']) {
      const res = await search(q);
      expect(res.body[0], q).toMatchObject({
        type: 'address',
        number: '16',
        postcode: '1000',
        names: { streetname: { nl: 'Wetstraat', fr: 'Rue de la Loi' } },
      });
      ids.add(res.body[0].id);
    }
    expect(ids.size).toBe(1);
    const french = await search('Rue de la Loi 16, Bruxelles');
    expect(french.body[0]).toMatchObject({ streetname: 'Rue de la Loi', city: 'Bruxelles' });
  });

  it('/search answers in the language of the query, with both names', async () => {
    const french = await search('Rue Élise 117, 1050 Ixelles');
    expect(french.body[0]).toMatchObject({
      streetname: 'Rue Élise',
      number: '117',
      city: 'Ixelles',
      names: { streetname: { nl: 'Elizastraat', fr: 'Rue Élise' }, city: expect.objectContaining({ nl: 'Elsene' }) },
    });
    const dutch = await search('Elizastraat 117 Elsene');
    expect(dutch.body[0]).toMatchObject({ streetname: 'Elizastraat', city: 'Elsene' });
    expect(dutch.body[0].id).toBe(french.body[0].id);
    expect(dutch.headers.get('vary')).toMatch(/Accept-Language/i);
  });

  it('/search: lang and Accept-Language choose the names shown', async () => {
    const lang = await api.call('GET', `/search?q=${encodeURIComponent('Elizastraat 117 Elsene')}&lang=fr`);
    expect(lang.body[0]).toMatchObject({ streetname: 'Rue Élise', city: 'Ixelles' });
    const header = await search('rue elise 117 ixelles', { 'Accept-Language': 'nl-BE,nl;q=0.9,fr;q=0.8' });
    expect(header.body[0]).toMatchObject({ streetname: 'Elizastraat', city: 'Elsene' });
    const bad = await api.call('GET', '/search?q=Elizastraat%20117&lang=en');
    expect(bad.status).toBe(400);
  });

  it("/search: a place's name in the language asked, else the one typed, its label too", async () => {
    const top = async (q: string, lang = '', headers?: Record<string, string>) => {
      const res = await api.call('GET', `/search?q=${encodeURIComponent(q)}${lang}`, headers ? { headers } : {});
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      return res.body[0];
    };
    const elsene = await top('Elsene');
    expect(elsene).toMatchObject({ name: 'Elsene', label: expect.stringMatching(/^Elsene/) });
    const asked = await top('Elsene', '&lang=fr');
    expect(asked).toMatchObject({ id: elsene.id, name: 'Ixelles', label: expect.stringMatching(/^Ixelles/) });
    expect(asked.names).toMatchObject({ nl: 'Elsene', fr: 'Ixelles' });
    expect(await top('Ixelles')).toMatchObject({ id: elsene.id, name: 'Ixelles' });
    expect(await top('Ixelles', '', { 'Accept-Language': 'nl-BE' })).toMatchObject({ name: 'Elsene' });
    // A street: its streetname and label.
    const street = await top('rue neuve bruxelles', '&lang=nl');
    expect(street).toMatchObject({
      type: 'street',
      streetname: 'Nieuwstraat',
      label: expect.stringMatching(/^Nieuwstraat/),
    });
    expect(await top('nieuwstraat brussel', '&lang=fr')).toMatchObject({ type: 'street', streetname: 'Rue Neuve' });
  });

  it('/geocode/forward and /lookup/street match the French street and city', async () => {
    const forward = await api.call('POST', '/geocode/forward', {
      body: { streetname: 'Rue Neuve', number: '1', city: 'Bruxelles' },
    });
    expect(forward.status, forward.text).toBe(200);
    expect(forward.body).toMatchObject({
      streetname: 'Rue Neuve',
      number: '1',
      postcode: '1000',
      match: { street: 'exact', number: 'exact' },
      confidence: 1,
    });
    const dutch = await api.call('POST', '/geocode/forward', {
      body: { streetname: 'Nieuwstraat', number: '1', city: 'Brussel', lang: 'fr' },
    });
    expect(dutch.body).toMatchObject({ id: forward.body.id, streetname: 'Rue Neuve', city: 'Bruxelles' });
    const typo = await api.call('POST', '/geocode/forward', { body: { streetname: 'Rue Nueve', number: '1' } });
    expect(typo.body).toMatchObject({ id: forward.body.id, match: { street: 'fuzzy' } });

    const lookup = await api.call('POST', '/lookup/street', {
      body: { streetname: 'rue elise', number: '117', city: 'Ixelles' },
      headers: { 'Accept-Language': 'nl' },
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body.length).toBeGreaterThan(1); // 117 and its box numbers
    for (const address of lookup.body) expect(address).toMatchObject({ streetname: 'Elizastraat', city: 'Elsene' });
  });

  it('/geocode/batch answers each item in its language', async () => {
    const res = await api.call('POST', '/geocode/batch', {
      body: {
        items: [
          { streetname: 'Rue Neuve', number: '1' },
          { streetname: 'Rue Neuve', number: '1', lang: 'nl' },
        ],
      },
    });
    expect(res.body.results.map((r: { result: { streetname: string } }) => r.result.streetname)).toEqual([
      'Rue Neuve',
      'Nieuwstraat',
    ]);
  });
});

describe('/autocomplete in French and Dutch', () => {
  const suggest = async (q: string, extra = '') => {
    const res = await api.call('GET', `/autocomplete?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return res.body as { type: string; streetname: string; label: string; number: string; id?: string }[];
  };

  it('suggests the street typed in French, named in French, and in Dutch with lang=nl', async () => {
    const french = await suggest('rue neu');
    expect(french[0]).toMatchObject({ type: 'street', streetname: 'Rue Neuve', label: 'Rue Neuve, Bruxelles' });
    const dutch = await suggest('rue neu', '&lang=nl');
    expect(dutch[0]).toMatchObject({ type: 'street', streetname: 'Nieuwstraat' });
  });

  it('completes the same address from either name', async () => {
    const french = await suggest('rue neuve 1');
    const dutch = await suggest('nieuwstraat 1');
    const first = (list: typeof french) => list.find((s) => s.type === 'address' && s.number === '1');
    expect(first(french)).toMatchObject({ streetname: 'Rue Neuve' });
    expect(first(dutch)).toMatchObject({ streetname: 'Nieuwstraat' });
    expect(first(french)?.id).toBe(first(dutch)?.id);
  });
});

describe('the hierarchy in the answer language', () => {
  it('names a municipality in the language asked, filtered in either, varying by Accept-Language', async () => {
    const [belgium] = (await api.call('GET', '/countries?country_code=BE')).body;
    const provinces = (await api.call('GET', `/countries/${belgium.id}/provinces`)).body as {
      id: string;
      local_identifier: string;
    }[];
    const bru = provinces.find((p) => p.local_identifier === 'BE-BRU')!;
    const list = (query: string, headers?: Record<string, string>) =>
      api.call('GET', `/provinces/${bru.id}/municipalities?${query}`, headers ? { headers } : {});
    const french = await list('name=Ixelles');
    expect(french.body).toEqual([
      expect.objectContaining({
        name: 'Ixelles',
        local_identifier: '21009',
        names: { nl: 'Elsene', fr: 'Ixelles', de: 'Ixelles' },
      }),
    ]);
    expect((await list('name=Elsene')).body[0].name).toBe('Elsene');
    expect((await list('name=Elsene&lang=fr')).body[0].name).toBe('Ixelles');
    const byHeader = await list('name=Elsene', { 'Accept-Language': 'fr-BE' });
    expect(byHeader.body[0].name).toBe('Ixelles');
    expect(byHeader.headers.get('vary')).toMatch(/Accept-Language/i);
    // Another language is another body: the ETag differs, so a cache never serves one for the other.
    const dutch = await list('name=Elsene', { 'Accept-Language': 'nl' });
    expect(dutch.body[0].name).toBe('Elsene');
    expect(dutch.headers.get('etag')).not.toBe(byHeader.headers.get('etag'));
  });

  it("names Belgium's provinces in Dutch, French or German as asked, and finds them by any of those names", async () => {
    const [belgium] = (await api.call('GET', '/countries?country_code=BE')).body;
    const provinces = async (query: string) =>
      (await api.call('GET', `/countries/${belgium.id}/provinces?${query}`)).body as {
        name: string;
        local_identifier: string;
      }[];
    const named = (list: { name: string; local_identifier: string }[]) =>
      Object.fromEntries(list.map((p) => [p.local_identifier, p.name]));
    expect(named(await provinces('lang=fr'))).toMatchObject({
      'BE-VAN': 'Anvers',
      'BE-WLG': 'Liège',
      'BE-VWV': 'Flandre-Occidentale',
      'BE-BRU': 'Région de Bruxelles-Capitale',
    });
    expect(named(await provinces('lang=nl'))).toMatchObject({
      'BE-VAN': 'Antwerpen',
      'BE-WLG': 'Luik',
      'BE-WHT': 'Henegouwen',
      'BE-BRU': 'Brussels Hoofdstedelijk Gewest',
    });
    expect(named(await provinces('lang=de'))).toMatchObject({ 'BE-WLG': 'Lüttich', 'BE-WHT': 'Hennegau' });
    for (const name of ['Anvers', 'Antwerpen', 'Antwerp']) {
      expect(
        (await provinces(`name=${name}`)).map((p) => p.local_identifier),
        name,
      ).toEqual(['BE-VAN']);
    }
  });

  it('gives the Brussels derived city its municipality names', async () => {
    const cities = await api.call('GET', '/cities?name=Ixelles');
    expect(cities.body).toEqual([
      expect.objectContaining({ name: 'Ixelles', names: expect.objectContaining({ nl: 'Elsene', fr: 'Ixelles' }) }),
    ]);
  });
});

/**
 * ONE Brussels address, Nieuwstraat 1 / Rue Neuve 1, 1000 Brussel / Bruxelles, through every endpoint that finds
 * or shows it: found by its French and by its Dutch writing, and `lang` switching the street and the city shown.
 */
describe('Nieuwstraat 1 / Rue Neuve 1 in either language through every endpoint', () => {
  const FRENCH = { streetname: 'Rue Neuve', city: 'Bruxelles' };
  const DUTCH = { streetname: 'Nieuwstraat', city: 'Brussel' };
  const NAMES = {
    streetname: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
    city: expect.objectContaining({ nl: 'Brussel', fr: 'Bruxelles' }),
  };
  let id: string;
  let point: { latitude: number; longitude: number };

  const ok = (res: { status: number; text: string }) => expect(res.status, res.text.slice(0, 300)).toBe(200);
  const forward = async (body: Record<string, string>) => {
    const res = await api.call('POST', '/geocode/forward', { body: { number: '1', ...body } });
    ok(res);
    return res.body;
  };

  beforeAll(async () => {
    const found = await forward({ streetname: 'Nieuwstraat', city: 'Brussel' });
    id = found.id;
    point = { latitude: found.latitude, longitude: found.longitude };
  });

  it('/geocode/forward: either writing finds it; lang shows either', async () => {
    expect(await forward({ streetname: 'Rue Neuve', city: 'Bruxelles' })).toMatchObject({ id, ...FRENCH });
    expect(await forward({ streetname: 'Nieuwstraat', city: 'Brussel' })).toMatchObject({ id, ...DUTCH });
    expect(await forward({ streetname: 'Rue Neuve', city: 'Bruxelles', lang: 'nl' })).toMatchObject({ id, ...DUTCH });
    const french = await forward({ streetname: 'Nieuwstraat', city: 'Brussel', lang: 'fr' });
    expect(french).toMatchObject({ id, ...FRENCH, names: NAMES });
  });

  it('/search: either writing finds it; lang shows either', async () => {
    for (const [q, lang, shown] of [
      ['Rue Neuve 1, 1000 Bruxelles', '', FRENCH],
      ['nieuwstraat 1 brussel', '', DUTCH],
      ['Rue Neuve 1 Bruxelles', '&lang=nl', DUTCH],
      ['Nieuwstraat 1 Brussel', '&lang=fr', FRENCH],
    ] as const) {
      const res = await api.call('GET', `/search?q=${encodeURIComponent(q)}${lang}`);
      ok(res);
      expect(res.body[0], `${q}${lang}`).toMatchObject({ type: 'address', id, ...shown, names: NAMES });
    }
  });

  it('/lookup/street: either writing finds it; lang shows either', async () => {
    for (const [body, shown] of [
      [{ streetname: 'rue neuve', city: 'bruxelles' }, FRENCH],
      [{ streetname: 'Nieuwstraat', city: 'Brussel' }, DUTCH],
      [{ streetname: 'Rue Neuve', lang: 'nl' }, DUTCH],
      [{ streetname: 'Nieuwstraat', lang: 'fr' }, FRENCH],
    ] as const) {
      const res = await api.call('POST', '/lookup/street', { body: { number: '1', ...body } });
      ok(res);
      expect(res.body, JSON.stringify(body)).toContainEqual(expect.objectContaining({ id, ...shown, names: NAMES }));
    }
  });

  it('/autocomplete: either writing completes it, street and city (and label) in the language asked', async () => {
    const address = async (q: string, lang = '') => {
      const res = await api.call('GET', `/autocomplete?q=${encodeURIComponent(q)}${lang}`);
      ok(res);
      return (res.body as { type: string; id?: string }[]).find((s) => s.type === 'address' && s.id === id);
    };
    expect(await address('rue neuve 1')).toMatchObject({ ...FRENCH, label: 'Rue Neuve 1, 1000 Bruxelles' });
    expect(await address('nieuwstraat 1')).toMatchObject({ ...DUTCH, label: 'Nieuwstraat 1, 1000 Brussel' });
    expect(await address('rue neuve 1', '&lang=nl')).toMatchObject({ ...DUTCH, names: NAMES });
    expect(await address('nieuwstraat 1', '&lang=fr')).toMatchObject({ ...FRENCH, names: NAMES });
  });

  it('/autocomplete: the French street typed with a typo is suggested as the Dutch one is, in its language', async () => {
    const first = async (q: string) => {
      const res = await api.call('GET', `/autocomplete?q=${encodeURIComponent(q)}`);
      ok(res);
      return res.body[0];
    };
    expect(await first('nieuwstrat')).toMatchObject({ type: 'street', ...DUTCH });
    expect(await first('rue nauve')).toMatchObject({ type: 'street', ...FRENCH, label: 'Rue Neuve, Bruxelles' });
    const typoAddress = await api.call('GET', `/autocomplete?q=${encodeURIComponent('rue nauve 1')}`);
    expect(typoAddress.body).toContainEqual(expect.objectContaining({ type: 'address', id }));
  });

  it('/autocomplete: its city offered in the language typed or asked', async () => {
    const area = async (q: string, lang = '') => {
      const res = await api.call('GET', `/autocomplete?q=${encodeURIComponent(q)}${lang}`);
      ok(res);
      return (res.body as { type: string; city: string; label: string }[]).find((s) => s.type === 'city');
    };
    expect(await area('bruxelles')).toMatchObject({ city: 'Bruxelles', label: expect.stringMatching(/^Bruxelles/) });
    expect(await area('bruxelles', '&lang=nl')).toMatchObject({ city: 'Brussel' });
    expect(await area('brussel')).toMatchObject({ city: 'Brussel' });
  });

  it('/reverse at its point: the address and its municipality in the language asked', async () => {
    const at = `/reverse?lat=${point.latitude}&lon=${point.longitude}`;
    const french = await api.call('GET', `${at}&lang=fr`);
    ok(french);
    expect(french.body.addresses[0]).toMatchObject({ id, ...FRENCH, names: NAMES });
    expect(french.body.areas.municipality).toMatchObject({
      name: 'Bruxelles',
      local_identifier: '21004',
      names: { nl: 'Brussel', fr: 'Bruxelles', de: 'Brüssel' },
    });
    expect(french.body.areas.city).toMatchObject({ name: 'Bruxelles' });
    expect(french.body.areas.country).toMatchObject({ local_identifier: 'BE' });
    // The region (a province of the hierarchy) too: Belgium's provinces carry their Dutch, French and German names.
    expect(french.body.areas.province).toEqual({
      id: expect.any(String),
      name: 'Région de Bruxelles-Capitale',
      local_identifier: 'BE-BRU',
      names: {
        nl: 'Brussels Hoofdstedelijk Gewest',
        fr: 'Région de Bruxelles-Capitale',
        de: 'Region Brüssel-Hauptstadt',
      },
    });

    const dutch = await api.call('GET', `${at}&lang=nl`);
    expect(dutch.body.addresses[0]).toMatchObject({ id, ...DUTCH });
    expect(dutch.body.areas.municipality).toMatchObject({ name: 'Brussel' });
    expect(dutch.body.areas.city).toMatchObject({ name: 'Brussel' });
    expect(dutch.body.areas.province).toMatchObject({ name: 'Brussels Hoofdstedelijk Gewest' });
    const german = await api.call('GET', at, { headers: { 'Accept-Language': 'de' } });
    expect(german.body.areas.province).toMatchObject({ name: 'Region Brüssel-Hauptstadt' });

    const byHeader = await api.call('GET', at, { headers: { 'Accept-Language': 'fr-BE,fr;q=0.9' } });
    expect(byHeader.body.areas.municipality).toMatchObject({ name: 'Bruxelles' });
    expect(byHeader.headers.get('vary')).toMatch(/Accept-Language/i);
    // Without a choice, the primary (Dutch: the address data's) names, with the others in `names`.
    const plain = await api.call('GET', at);
    expect(plain.body.addresses[0]).toMatchObject({ ...DUTCH, names: NAMES });
    expect(plain.body.areas.municipality).toMatchObject({ name: 'Brussel' });
    // The region's own name is Natural Earth's (`Brussels`), its languages' in `names`.
    expect(plain.body.areas.province).toMatchObject({ name: 'Brussels', names: french.body.areas.province.names });
    expect((await api.call('GET', `${at}&lang=en`)).status).toBe(400);
  });

  it('GET /addresses/{id} and its GeoJSON: the language asked, by lang or Accept-Language', async () => {
    const french = await api.call('GET', `/addresses/${id}?lang=fr`);
    ok(french);
    expect(french.body).toMatchObject({ id, ...FRENCH, names: NAMES });
    const dutch = await api.call('GET', `/addresses/${id}`, { headers: { 'Accept-Language': 'nl-BE' } });
    expect(dutch.body).toMatchObject({ id, ...DUTCH });
    expect(dutch.headers.get('vary')).toMatch(/Accept-Language/i);

    const geojson = (headers: Record<string, string>) => api.call('GET', `/addresses/${id}/geojson`, { headers });
    const frenchFeature = await geojson({ 'Accept-Language': 'fr' });
    ok(frenchFeature);
    expect(frenchFeature.body.features[0].properties).toMatchObject({ ...FRENCH, names: NAMES });
    const dutchFeature = await geojson({ 'Accept-Language': 'nl' });
    expect(dutchFeature.body.features[0].properties).toMatchObject(DUTCH);
    // Another language is another body: a cache never serves one for the other.
    expect(dutchFeature.headers.get('etag')).not.toBe(frenchFeature.headers.get('etag'));
  });
});
