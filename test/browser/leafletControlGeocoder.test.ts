/**
 * leaflet-control-geocoder (the npm package's own browser bundle, unchanged) in Debian's chromium, against the API in
 * this process over the real Elasticsearch holding the sample. A test page, served from another origin as a web
 * developer's page would be, loads Leaflet and the control and points its Nominatim, Photon or Pelias geocoder at the
 * service with nothing but a base URL and a key (the key in the query string: the package's requests carry only an
 * `Accept` header). The tests type into the control and read what it shows: its suggestions, its result list, the
 * result it marks on the map; reverse is the geocoder's own `reverse()`. Any console error, page error, failed
 * request, error answer or API request without the key in its URL fails them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../support/api.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const modules = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/** The files the test page loads, from the npm packages as a bundler or a CDN would hand them out. */
const FILES: Record<string, { file: string; type: string }> = {
  '/leaflet.js': { file: 'leaflet/dist/leaflet.js', type: 'text/javascript' },
  '/leaflet.css': { file: 'leaflet/dist/leaflet.css', type: 'text/css' },
  '/geocoder.js': { file: 'leaflet-control-geocoder/dist/Control.Geocoder.js', type: 'text/javascript' },
  '/geocoder.css': { file: 'leaflet-control-geocoder/dist/Control.Geocoder.css', type: 'text/css' },
  '/images/marker-icon.png': { file: 'leaflet/dist/images/marker-icon.png', type: 'image/png' },
  '/images/marker-icon-2x.png': { file: 'leaflet/dist/images/marker-icon-2x.png', type: 'image/png' },
  '/images/marker-shadow.png': { file: 'leaflet/dist/images/marker-shadow.png', type: 'image/png' },
};

/**
 * The page a web developer writes: a map, the control, one of the package's geocoders configured from the page's
 * query string (`geocoder`, `base`, `key`). What the control marks is kept on `window.marked` (its `markgeocode`
 * event, its public API) for the test to read.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>leaflet-control-geocoder</title>
<link rel="stylesheet" href="/leaflet.css"><link rel="stylesheet" href="/geocoder.css">
<style>#map { width: 800px; height: 600px; }</style></head>
<body><div id="map"></div>
<script src="/leaflet.js"></script><script src="/geocoder.js"></script>
<script>
  const params = new URLSearchParams(location.search);
  const base = params.get('base');
  const key = params.get('key');
  const lang = params.get('lang') ? { lang: params.get('lang') } : {};
  const geocoders = {
    nominatim: () => L.Control.Geocoder.nominatim({
      serviceUrl: base + '/nominatim/',
      geocodingQueryParams: { api_key: key },
      reverseQueryParams: { api_key: key },
    }),
    photon: () => L.Control.Geocoder.photon({
      serviceUrl: base + '/photon/api/',
      reverseUrl: base + '/photon/reverse',
      geocodingQueryParams: { api_key: key, ...lang },
      reverseQueryParams: { api_key: key, ...lang },
    }),
    pelias: () => L.Control.Geocoder.pelias({ serviceUrl: base + '/pelias/v1', apiKey: key }),
  };
  window.map = L.map('map').setView([52.0, 4.36], 12);
  window.geocoder = geocoders[params.get('geocoder')]();
  window.marked = [];
  window.geocoded = [];
  window.suggested = [];
  window.control = L.Control.geocoder({ geocoder: window.geocoder, collapsed: false, showUniqueResult: false })
    .on('markgeocode', (e) => window.marked.push({
      name: e.geocode.name,
      lat: e.geocode.center.lat,
      lon: e.geocode.center.lng,
      bbox: e.geocode.bbox.toBBoxString(),
    }))
    .on('finishgeocode', (e) => window.geocoded.push(e.input))
    .on('finishsuggest', (e) => window.suggested.push(e.input))
    .addTo(window.map);
</script></body></html>`;

let api: TestApi;
let pageServer: Server;
let pageOrigin: string;
let context: BrowserContext;
let page: Page;
let profile: string;
let problems: string[] = [];

function servePage(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://page').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    const asset = FILES[path];
    if (!asset) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': asset.type }).end(readFileSync(join(modules, asset.file)));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function watchForProblems(target: Page) {
  target.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  target.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  target.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  target.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`);
  });
  target.on('request', (r) => {
    if (!r.url().startsWith(api.url)) return;
    // Nothing but a base URL and a key: the package sends no header of ours; the key rides in the query string.
    if (new URL(r.url()).searchParams.get('api_key') !== TEST_API_KEY) problems.push(`no key in ${r.url()}`);
    if (r.headers()['x-api-key']) problems.push(`an X-Api-Key header on ${r.url()}`);
  });
}

/** Requests the page sent to the API, as paths with their parameters (the key left out). */
let apiRequests: string[] = [];

async function open(geocoder: 'nominatim' | 'photon' | 'pelias', lang?: string) {
  apiRequests = [];
  const query = new URLSearchParams({ geocoder, base: api.url, key: TEST_API_KEY, ...(lang ? { lang } : {}) });
  await page.goto(`${pageOrigin}/?${query}`);
  await page.locator('.leaflet-control-geocoder input').waitFor();
}

/** Past the control's suggestTimeout (250 ms): a wait, not an assertion. */
const SUGGEST_DELAY_WAIT_MS = 600;
const input = () => page.locator('.leaflet-control-geocoder input');
const alternatives = () => page.locator('.leaflet-control-geocoder-alternatives li');

/** Types text as a user does (key by key: the control suggests on `input` events) and waits for its list. */
async function typeAndWaitForList(text: string) {
  await input().fill('');
  await input().pressSequentially(text, { delay: 20 });
  await page.waitForFunction(`window.suggested.includes(${JSON.stringify(text)})`);
  return alternatives().allInnerTexts();
}

/**
 * Enter geocodes the typed text; the list shows its results; a click on the first marks it on the map. The user
 * pauses before Enter: the control sends a suggestion request 250 ms after the last keystroke whatever happens in
 * between, and a geocode answer that arrives before it is dropped (the control keeps only its latest request's).
 */
async function geocodeAndMarkFirst(text: string) {
  await input().fill(text);
  await page.waitForTimeout(SUGGEST_DELAY_WAIT_MS);
  await input().press('Enter');
  await page.waitForFunction(`window.geocoded.includes(${JSON.stringify(text)})`);
  await page
    .locator('.leaflet-control-geocoder-alternatives:not(.leaflet-control-geocoder-alternatives-minimized) li')
    .first()
    .waitFor();
  const listed = await alternatives().allInnerTexts();
  await alternatives().first().dispatchEvent('mousedown');
  await page.waitForFunction('window.marked.length > 0');
  const [marked] =
    await page.evaluate<Array<{ name: string; lat: number; lon: number; bbox: string }>>('window.marked');
  return { listed, marked: marked! };
}

/** The geocoder's own reverse, at the scale of zoom 18 (the package turns the scale into Nominatim's `zoom`). */
const reverse = async (lat: number, lon: number) =>
  page.evaluate<Array<{ name: string; lat: number; lon: number }>>(
    `geocoder.reverse(L.latLng(${lat}, ${lon}), map.options.crs.scale(18))
       .then((rs) => rs.map((r) => ({ name: r.name, lat: r.center.lat, lon: r.center.lng })))`,
  );

const nativeTop = async (q: string) => (await api.call('GET', `/search?q=${encodeURIComponent(q)}`)).body[0];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH to a Chromium or Chrome`,
    );
  }
  api = await startTestApi();
  pageServer = await servePage();
  pageOrigin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'geocoder-lcg-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  watchForProblems(page);
  page.on('request', (r) => {
    if (!r.url().startsWith(api.url)) return;
    const url = new URL(r.url());
    url.searchParams.delete('api_key');
    apiRequests.push(`${url.pathname}${url.search}`);
  });
});

afterEach(() => {
  const seen = problems;
  problems = [];
  expect(seen).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => pageServer?.close(resolve));
  await api?.close();
});

describe('leaflet-control-geocoder in the browser', { timeout: 120_000 }, () => {
  it('Nominatim: geocodes on Enter and marks the same place as native /search; reverses a point', async () => {
    await open('nominatim');
    const native = await nativeTop('Mekelweg 8 Delft');
    const { listed, marked } = await geocodeAndMarkFirst('Mekelweg 8, 2628 CD Delft');
    // The package's own address template over our addressdetails: road and number, postcode and city, country.
    expect(listed[0]).toMatch(/Mekelweg 8/);
    expect(listed[0]).toMatch(/2628CD Delft/);
    expect(marked).toMatchObject({ lat: native.latitude, lon: native.longitude });
    expect(marked.name).toMatch(/^8, Mekelweg, Delft/);
    // The package never suggests with Nominatim (the OSM usage policy): typing asked nothing but the Enter's search.
    expect(apiRequests.every((r) => r.startsWith('/nominatim/search?'))).toBe(true);

    const [nearest] = await reverse(native.latitude, native.longitude);
    expect(nearest!.name).toMatch(/^8, Mekelweg, (.+, )?Delft, /);
    expect(apiRequests.at(-1)).toMatch(/^\/nominatim\/reverse\?.*zoom=18/);
  });

  it('Photon: suggests while typing, geocodes on Enter, reverses a point', async () => {
    await open('photon', 'fr');
    const suggested = await typeAndWaitForList('Mekelw');
    expect(suggested.some((s) => s.startsWith('Mekelweg'))).toBe(true);
    // The package's own form of the URL, with its trailing slash (its default is https://photon.komoot.io/api/).
    expect(apiRequests.some((r) => r.startsWith('/photon/api/?q=Mekelw'))).toBe(true);

    const native = await nativeTop('Rue Élise 117, 1050 Ixelles');
    const { marked } = await geocodeAndMarkFirst('Rue Élise 117, 1050 Ixelles');
    expect(marked).toMatchObject({ lat: native.latitude, lon: native.longitude });
    expect(marked.name).toMatch(/Rue Élise/);

    const [nearest] = await reverse(native.latitude, native.longitude);
    expect(nearest!.name).toMatch(/Rue Élise/);
  });

  it('Pelias: suggests through autocomplete, geocodes through search, reverses a point', async () => {
    await open('pelias');
    const suggested = await typeAndWaitForList('Mekelw');
    expect(suggested).toContain('Mekelweg, Delft');
    expect(apiRequests.some((r) => r.startsWith('/pelias/v1/autocomplete?text=Mekelw'))).toBe(true);

    const native = await nativeTop('Delft');
    const { marked } = await geocodeAndMarkFirst('Delft');
    expect(marked).toMatchObject({ lat: native.latitude, lon: native.longitude, name: 'Delft, Netherlands' });
    // An area comes with its box: the map frames Delft, not a point.
    const [west, south, east, north] = marked.bbox.split(',').map(Number);
    expect(east! - west!).toBeGreaterThan(0.01);
    expect(north! - south!).toBeGreaterThan(0.01);

    const addr = await nativeTop('Mekelweg 8 Delft');
    const [nearest] = await reverse(addr.latitude, addr.longitude);
    expect(nearest!.name).toMatch(/^Mekelweg 8/);
  });
});
