/**
 * One search behind every dialect: for the same text, Nominatim's, Photon's and Pelias' first result is native
 * /search's first result (the same record, at the same point), over a fixed list of addresses, streets, places and
 * Brussels in French and Dutch, against the sample in the real Elasticsearch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

const QUERIES = [
  // Addresses, as people write them.
  'Mekelweg 8, 2628 CD Delft',
  'delft, mekelweg 8',
  'Mekelweg 8',
  'Rue Neuve 1, 1000 Bruxelles',
  'Nieuwstraat 1 Brussel',
  'Rue Élise 117, 1050 Ixelles',
  'Elizastraat 117 Elsene',
  'Nieuwstraat 8 bus 3, 1000 Brussel',
  // Streets.
  'Mekelweg Delft',
  'Rue Élise, Ixelles',
  'rue neuve bruxelles',
  // Postcodes and places.
  '2628CD',
  'Delft',
  'Zuid-Holland',
  'Elsene',
  'Ixelles',
  'Bruxelles',
];

interface Top {
  id: string;
  lon: number;
  lat: number;
}

const get = async (path: string, params: Record<string, string>) => {
  const res = await fetch(`${api.url}${path}?${new URLSearchParams(params)}`, {
    headers: { 'x-api-key': TEST_API_KEY },
  });
  expect(res.status, `${path} ${JSON.stringify(params)}`).toBe(200);
  return (await res.json()) as any;
};

const TOP: Record<string, (q: string) => Promise<Top | undefined>> = {
  native: async (q) => {
    const [r] = await get('/search', { q });
    return r && { id: r.id, lon: r.longitude, lat: r.latitude };
  },
  nominatim: async (q) => {
    const [r] = await get('/nominatim/search', { q, format: 'json' });
    return r && { id: r.place_id, lon: Number(r.lon), lat: Number(r.lat) };
  },
  photon: async (q) => {
    const [f] = (await get('/photon/api', { q })).features;
    return f && { id: f.properties.id, lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] };
  },
  pelias: async (q) => {
    const [f] = (await get('/pelias/v1/search', { text: q })).features;
    return f && { id: f.properties.id, lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] };
  },
};

describe('the dialects and native /search agree on the top result', () => {
  it.each(QUERIES)('%s', async (q) => {
    const native = await TOP.native!(q);
    expect(native, `native /search finds ${q}`).toBeDefined();
    for (const dialect of ['nominatim', 'photon', 'pelias']) {
      const top = await TOP[dialect]!(q);
      expect(top, `${dialect}: ${q}`).toBeDefined();
      expect(top!.id, `${dialect}: ${q}`).toBe(native!.id);
      expect(top!.lon, `${dialect}: ${q}`).toBeCloseTo(native!.lon, 6);
      expect(top!.lat, `${dialect}: ${q}`).toBeCloseTo(native!.lat, 6);
    }
  });

  it("shows the names the dialect's language parameter asks for, as native lang does", async () => {
    const q = 'Elizastraat 117 Elsene';
    const [native] = await get('/search', { q, lang: 'fr' });
    expect(native).toMatchObject({ streetname: 'Rue Élise', city: 'Ixelles' });
    const [nominatim] = await get('/nominatim/search', { q, 'accept-language': 'fr', addressdetails: '1' });
    expect(nominatim.address).toMatchObject({ road: 'Rue Élise', city: 'Ixelles' });
    const [photon] = (await get('/photon/api', { q, lang: 'fr' })).features;
    expect(photon.properties).toMatchObject({ street: 'Rue Élise', city: 'Ixelles' });
    const [pelias] = (await get('/pelias/v1/search', { text: q, lang: 'fr' })).features;
    expect(pelias.properties).toMatchObject({ street: 'Rue Élise', locality: 'Ixelles' });
    // A place's own name too (the native record carries it in `names`).
    const street = 'Elizastraat Elsene';
    const [nominatimStreet] = await get('/nominatim/search', {
      q: street,
      'accept-language': 'fr',
      addressdetails: '1',
    });
    expect(nominatimStreet).toMatchObject({ name: 'Rue Élise', address: { road: 'Rue Élise' } });
    const [photonStreet] = (await get('/photon/api', { q: street, lang: 'fr' })).features;
    expect(photonStreet.properties).toMatchObject({ name: 'Rue Élise', street: 'Rue Élise' });
    const [peliasCity] = (await get('/pelias/v1/search', { text: 'Elsene', lang: 'fr' })).features;
    expect(peliasCity.properties).toMatchObject({ name: 'Ixelles', locality: 'Ixelles' });
  });
});
