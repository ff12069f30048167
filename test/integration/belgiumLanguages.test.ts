/**
 * Brussels in French and Dutch through every endpoint that matches a name, against the sample indexed into the
 * real Elasticsearch: the same address found in either language (street and city), and the names shown chosen by
 * `lang`, Accept-Language, or the language the query was written in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.js';

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
    expect(french[0]).toMatchObject({ type: 'street', streetname: 'Rue Neuve', label: 'Rue Neuve, Brussel' });
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

  it('gives the Brussels derived city its municipality names', async () => {
    const cities = await api.call('GET', '/cities?name=Ixelles');
    expect(cities.body).toEqual([
      expect.objectContaining({ name: 'Ixelles', names: expect.objectContaining({ nl: 'Elsene', fr: 'Ixelles' }) }),
    ]);
  });
});
