/**
 * leaflet-geosearch's OpenStreetMap (Nominatim) and Pelias providers, unchanged, against the service in Node: the
 * provider classes are the package's own source (src/providers/, shipped in the npm package); its bundle imports
 * Leaflet, which needs a browser window. The key goes in the providers' `params`, which they add to every query.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';

interface GeosearchResult {
  x: number;
  y: number;
  label: string;
  bounds: [[number, number], [number, number]] | null;
  raw: any;
}
type Provider = new (options: object) => { search(options: { query: string }): Promise<GeosearchResult[]> };

const providers = fileURLToPath(
  new URL('../../../../../node_modules/leaflet-geosearch/src/providers/', import.meta.url),
);
const load = async (file: string) =>
  ((await import(/* @vite-ignore */ `${providers}${file}`)) as { default: Provider }).default;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

describe('leaflet-geosearch', () => {
  it('OpenStreetMapProvider: searchUrl pointed at /nominatim/search', async () => {
    const OpenStreetMapProvider = await load('openStreetMapProvider.ts');
    const provider = new OpenStreetMapProvider({
      searchUrl: `${api.url}/nominatim/search`,
      reverseUrl: `${api.url}/nominatim/reverse`,
      params: { api_key: TEST_API_KEY, 'accept-language': 'fr' },
    });
    const native = await nativeTop('Mekelweg 8 Delft');
    const [first] = await provider.search({ query: 'Mekelweg 8, 2628 CD Delft' });
    expect(first).toMatchObject({
      x: native.longitude,
      y: native.latitude,
      label: '8, Mekelweg, Delft, 2628CD, Netherlands',
    });
    const [street] = await provider.search({ query: 'Elizastraat Elsene' });
    expect(street!.label).toMatch(/^Rue Élise, /);
    // bounds: [[south, west], [north, east]] from the boundingbox strings.
    expect(street!.bounds![0][0]).toBeLessThan(street!.bounds![1][0]);
  });

  it('PeliasProvider: host pointed at /pelias, its search is Pelias autocomplete', async () => {
    const PeliasProvider = await load('peliasProvider.ts');
    const provider = new PeliasProvider({ host: `${api.url}/pelias`, params: { api_key: TEST_API_KEY } });
    const results = await provider.search({ query: 'Mekelw' });
    expect(results.map((r) => r.label)).toContain('Mekelweg, Delft');
    const [city] = await provider.search({ query: 'Delft' });
    expect(city!.raw.properties).toMatchObject({ layer: 'locality', name: 'Delft' });
    expect(city!.bounds).not.toBeNull();
  });
});
