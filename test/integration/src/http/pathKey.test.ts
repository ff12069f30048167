/**
 * The key in the path (`/k/<key>/nominatim/search`), for clients that take an endpoint URL and can carry a key in
 * neither a header nor the query string: QGIS' Nominatim locator replaces the endpoint's query string with its own
 * and sends no header of ours. Against the sample in the real Elasticsearch; nothing is opened to anonymous callers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

/**
 * The request QGIS' Nominatim geocoder sends (QgsNominatimGeocoder::requestUrl, QGIS 3.18 on): the configured
 * endpoint with its query string replaced by format, addressdetails, the canvas' viewbox, countrycodes and q.
 */
function qgisRequest(endpoint: string, q: string, viewbox?: string, countrycodes?: string) {
  const url = new URL(endpoint);
  const query = new URLSearchParams({ format: 'json', addressdetails: '1' });
  if (viewbox) query.set('viewbox', viewbox);
  if (countrycodes) query.set('countrycodes', countrycodes);
  query.set('q', q);
  url.search = query.toString();
  return fetch(url, { headers: { 'User-Agent': 'Mozilla/5.0 QGIS/34400' } });
}

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

describe('the key in the path', () => {
  it("QGIS' Nominatim locator, its endpoint set to /k/<key>/nominatim/search, finds what native /search finds", async () => {
    const endpoint = `${api.url}/k/${encodeURIComponent(TEST_API_KEY)}/nominatim/search`;
    const native = await nativeTop('Mekelweg 8 Delft');
    const res = await qgisRequest(endpoint, 'Mekelweg 8, 2628 CD Delft', '4.30,51.95,4.42,52.05', 'nl');
    expect(res.status).toBe(200);
    const [first] = (await res.json()) as any[];
    // What QGIS reads: lat/lon, display_name, boundingbox, class/type and the address.
    expect(first).toMatchObject({ place_id: native.id, lat: String(native.latitude), lon: String(native.longitude) });
    expect(first.display_name).toMatch(/^8, Mekelweg, Delft/);
    expect(first.address).toMatchObject({ house_number: '8', road: 'Mekelweg', country_code: 'nl' });

    // The same in French, on any dialect route that takes a key in the query string.
    const photon = await fetch(`${api.url}/k/${TEST_API_KEY}/photon/api?q=Rue+%C3%89lise+117+Ixelles&lang=fr`);
    expect(photon.status).toBe(200);
    expect(((await photon.json()) as any).features[0].properties.street).toBe('Rue Élise');
  });

  it('a wrong or missing key is a 401 in the dialect shape; other routes take no key in the path', async () => {
    const wrong = await fetch(`${api.url}/k/wrong-key-value/nominatim/search?q=Delft`);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any).error.code).toBe(401);
    expect((await fetch(`${api.url}/k//nominatim/search?q=Delft`)).status).toBe(401);
    expect((await fetch(`${api.url}/nominatim/search?q=Delft`)).status).toBe(401);
    // The header is the native routes' only key: a key in the path does not open them.
    expect((await fetch(`${api.url}/k/${TEST_API_KEY}/search?q=Delft`)).status).toBe(401);
    // Nor the tiles (a TileJSON's tile URLs carry a key given in the query string, never one from the path).
    expect((await fetch(`${api.url}/k/${TEST_API_KEY}/tiles/boundaries.json`)).status).toBe(401);
    // An unknown path answers as it does without a key (authentication comes before routing).
    expect((await fetch(`${api.url}/k/${TEST_API_KEY}/no-such-route`)).status).toBe(
      (await fetch(`${api.url}/no-such-route`)).status,
    );
  });

  it('never reaches a log line: the path is logged without it, on an answer, an error and an unknown path', async () => {
    const lines: { msg: string }[] = [];
    const logged = await startTestApi({ logSink: (line) => lines.push(line) });
    try {
      expect((await fetch(`${logged.url}/k/${TEST_API_KEY}/nominatim/search?q=Delft`)).status).toBe(200);
      expect((await fetch(`${logged.url}/k/${TEST_API_KEY}/nominatim/reverse?lat=x&lon=4`)).status).toBe(400);
      expect((await fetch(`${logged.url}/k/wrong-key-value/nominatim/search?q=Delft`)).status).toBe(401);
      expect((await fetch(`${logged.url}/k/${TEST_API_KEY}/no-such-route`)).status).toBe(401);
      expect(lines.length).toBeGreaterThanOrEqual(4);
      const text = JSON.stringify(lines);
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain('wrong-key-value');
      expect(lines.map((l) => (l as { path?: string }).path)).toContain('/nominatim/search');
    } finally {
      await logged.close();
    }
  });
});
