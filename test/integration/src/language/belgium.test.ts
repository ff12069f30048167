/**
 * Belgium in the sample, indexed by the real indexer into the real Elasticsearch: the 581 municipalities with their
 * NIS codes under the right provinces, names in every language for the hierarchy name filters, the Brussels
 * addresses carrying their Dutch and French street names, and /reverse naming a Brussels municipality.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AddressDoc, StreetDoc } from '../../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { streetKey } from '../../../../core/text/normalise.js';
import { startTestApi, type TestApi } from '../../../support/api.js';

interface Area {
  id: string;
  name: string;
  local_identifier: string;
  province_id?: string;
  municipality_id?: string;
}

let api: TestApi;
let provinces: Area[];
const get = async <T>(path: string): Promise<T> => {
  const res = await api.call('GET', path);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body as T;
};
const province = (iso: string) => provinces.find((p) => p.local_identifier === iso) as Area;

beforeAll(async () => {
  api = await startTestApi();
  const [belgium] = await get<Area[]>('/countries?country_code=BE');
  provinces = await get<Area[]>(`/countries/${belgium!.id}/provinces`);
});

afterAll(async () => {
  await api?.close();
});

describe('Belgian municipalities', () => {
  it('lists the 581 under their 10 provinces and the Brussels-Capital Region, with NIS codes', async () => {
    expect(provinces.map((p) => p.local_identifier).sort()).toEqual(
      ['BRU', 'VAN', 'VBR', 'VLI', 'VOV', 'VWV', 'WBR', 'WHT', 'WLG', 'WLX', 'WNA'].map((p) => `BE-${p}`),
    );
    let total = 0;
    for (const p of provinces) {
      const municipalities = await get<Area[]>(`/provinces/${p.id}/municipalities`);
      total += municipalities.length;
      for (const m of municipalities) expect(m.local_identifier).toMatch(/^\d{5}$/);
    }
    expect(total).toBe(581);
    const brussels = await get<Area[]>(`/provinces/${province('BE-BRU').id}/municipalities`);
    expect(brussels).toHaveLength(19);
    expect(brussels.map((m) => m.local_identifier)).toContain('21009');
    const antwerp = await get<Area[]>(`/provinces/${province('BE-VAN').id}/municipalities?name=Antwerpen`);
    expect(antwerp.map((m) => m.local_identifier)).toEqual(['11002']);
  });

  it("names each in its own language: Liège in French, Schaerbeek's Dutch name as the addresses use", async () => {
    const liege = await get<Area[]>(`/provinces/${province('BE-WLG').id}/municipalities?name=li%C3%A8ge`);
    expect(liege.map((m) => [m.name, m.local_identifier])).toEqual([['Liège', '62063']]);
    const schaerbeek = await get<Area[]>(`/provinces/${province('BE-BRU').id}/municipalities?name=schaar`);
    expect(schaerbeek.map((m) => m.name)).toEqual(['Schaarbeek']);
  });

  it('matches the name filter in any language, whole or by word prefix', async () => {
    const bru = province('BE-BRU').id;
    for (const name of ['Ixelles', 'Elsene', 'ixel', 'ELSENE']) {
      const found = await get<Area[]>(`/provinces/${bru}/municipalities?name=${encodeURIComponent(name)}`);
      // Shown in the language the filter named it in (a prefix names none: the primary name).
      expect(
        found.map((m) => [m.name, m.local_identifier]),
        name,
      ).toEqual([[name === 'Ixelles' ? 'Ixelles' : 'Elsene', '21009']]);
    }
    const woluwe = await get<Area[]>(`/provinces/${bru}/municipalities?name=saint`);
    expect(woluwe.map((m) => m.local_identifier).sort()).toEqual([
      '21003',
      '21012',
      '21013',
      '21014',
      '21018',
      '21019',
    ]);
  });

  it("puts Brussels' derived cities under the municipality holding their addresses", async () => {
    const [elsene] = await get<Area[]>(`/provinces/${province('BE-BRU').id}/municipalities?name=Elsene`);
    const cities = await get<Area[]>('/cities?name=elsene');
    expect(cities.map((c) => [c.name, c.municipality_id])).toEqual([['Elsene', elsene!.id]]);
  });
});

describe('Brussels addresses in Dutch and French', () => {
  it('carry both street names and the French keys, in the addresses and the streets index', async () => {
    const prefix = inject('samplePrefix');
    const address = await api.client.search<AddressDoc>({
      index: aliasName(prefix, 'addresses'),
      query: { bool: { filter: [{ term: { street_key: 'elizastraat' } }, { term: { house_number: 117 } }] } },
    });
    const docs = address.hits.hits.map((h) => h._source as AddressDoc);
    expect(docs.length).toBeGreaterThan(1); // 117 and its box numbers
    for (const doc of docs) {
      expect(doc).toMatchObject({
        streetname: 'Elizastraat',
        city: 'Elsene',
        street_names: { nl: 'Elizastraat', fr: 'Rue Élise' },
        other_street_keys: [streetKey('rue elise')],
        other_street_text: ['rue elise'],
      });
    }
    const street = await api.client.search<StreetDoc>({
      index: aliasName(prefix, 'streets'),
      query: { term: { other_street_keys: streetKey('Rue Neuve') } },
    });
    expect(street.hits.hits.map((h) => h._source)).toEqual([
      expect.objectContaining({
        streetname: 'Nieuwstraat',
        city: 'Brussel',
        street_names: { nl: 'Nieuwstraat', fr: 'Rue Neuve' },
        other_street_words: ['rue neuve', 'neuve'],
      }),
    ]);
  });

  it('/reverse at a Brussels address names its municipality, region and country', async () => {
    const res = await api.call('GET', '/reverse?lat=50.81749&lon=4.38224');
    expect(res.status).toBe(200);
    expect(res.body.addresses[0]).toMatchObject({ streetname: 'Elizastraat', number: '117', city: 'Elsene' });
    expect(res.body.areas).toMatchObject({
      country: { name: 'Belgium', local_identifier: 'BE' },
      province: { local_identifier: 'BE-BRU' },
      municipality: { name: 'Elsene', local_identifier: '21009' },
      city: { name: 'Elsene' },
    });
  });
});
