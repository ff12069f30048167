/**
 * The map page (/map/) in a real browser: Debian's chromium, driven by playwright-core, against the API in this
 * process over the real Elasticsearch holding the sample. The tests do what a user does (type, click) and read
 * what a user sees (panel text, drawn outlines, the popup). Any console error, uncaught page error, failed
 * request or error answer fails them, except the 401s of the one test that gives a wrong key on purpose.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../support/api.js';

const SCREENSHOTS = resolve(import.meta.dirname, '../../test-output/screenshots');
/** Debian's chromium (what .ci/run installs); CHROMIUM_PATH points elsewhere (e.g. a Chrome on a Mac). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };

let api: TestApi;
let context: BrowserContext;
let page: Page;
let profile: string;
/** What went wrong in the browser during the current test. */
let problems: string[] = [];
/** Only while a test gives a wrong key on purpose. */
let expectingUnauthorized = false;
/**
 * Only while a test reloads the page on purpose (the language switch): the browser cancels what was in flight then,
 * as it must; a view request that a late map move started just before the reload ends as net::ERR_ABORTED.
 */
let reloading = false;
/** Requests the page has started and not yet seen end. */
let inFlight = 0;

const isPageFile = (url: string) => new URL(url).pathname.startsWith('/map/');

function watchForProblems(target: Page) {
  target.on('console', (message) => {
    // Chromium logs every error answer to the console; the intended 401s are expected there too.
    const intended = expectingUnauthorized && /status of 401/.test(message.text());
    if (message.type() === 'error' && !intended) problems.push(`console error: ${message.text()}`);
  });
  target.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  target.on('requestfailed', (request) => {
    const errorText = request.failure()?.errorText;
    if (reloading && errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} (${errorText})`);
  });
  target.on('response', (response) => {
    const intended = expectingUnauthorized && response.status() === 401;
    if (response.status() >= 400 && !intended) problems.push(`${response.status()} for ${response.url()}`);
  });
  target.on('requestfinished', () => inFlight--);
  target.on('requestfailed', () => inFlight--);
  target.on('request', (request) => {
    inFlight++;
    // The page itself loads without a key; every API call carries one.
    if (!request.url().startsWith('data:') && !isPageFile(request.url()) && !request.headers()['x-api-key']) {
      problems.push(`API call without X-Api-Key: ${request.url()}`);
    }
  });
}

/** Runs a reload the test asks for on purpose; what it cancels in flight is not counted as a failure. */
async function reloadingOnPurpose(reload: () => Promise<unknown>) {
  reloading = true;
  try {
    await reload();
  } finally {
    reloading = false;
  }
}

/** Until every request the page made has been answered. */
async function networkIdle() {
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
}

/** The view layers ask 250 ms after the map stops (web/map/viewportLayers.js): a wait, not an assertion. */
const VIEW_DEBOUNCE_WAIT_MS = 400;
/** Past a move's debounced requests too: the last move (a pin, a framed place) has asked and been answered. */
async function settled() {
  await page.waitForTimeout(VIEW_DEBOUNCE_WAIT_MS);
  await networkIdle();
}

const pathCount = (selector: string) => page.locator(`#map path.${selector}`).count();

type Box = [number, number, number, number];
/** The map's view as the page notes it on the map element after every move: [west, south, east, north]. */
async function mapView(): Promise<Box> {
  return (await page.getByTestId('map').getAttribute('data-view'))!.split(',').map(Number) as Box;
}
/** The view holds the whole box, and the box fills a good part of it (fitBounds, not merely somewhere inside). */
function expectFramed(view: Box, box: Box) {
  const slack = 1e-6;
  expect(view[0]).toBeLessThanOrEqual(box[0] + slack);
  expect(view[1]).toBeLessThanOrEqual(box[1] + slack);
  expect(view[2]).toBeGreaterThanOrEqual(box[2] - slack);
  expect(view[3]).toBeGreaterThanOrEqual(box[3] - slack);
  const share = Math.max((box[2] - box[0]) / (view[2] - view[0]), (box[3] - box[1]) / (view[3] - view[1]));
  expect(share).toBeGreaterThan(0.3);
}

/**
 * Types `q` until a suggestion of `type` named `suggested` shows (with its type label), then `full` and Enter;
 * waits for the page's results. Answers the first result /search gives for `full`: what the page shows.
 */
async function searchOnEnter(q: string, suggested: RegExp, type: string, full = q) {
  const input = page.getByRole('combobox', { name: 'Search an address' });
  await input.fill(q);
  const option = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name: suggested }).first();
  await option.waitFor();
  expect(await option.locator('.type-label').innerText()).toBe(type);
  await input.fill(full);
  await input.press('Enter');
  await page
    .getByTestId('status')
    .filter({ hasText: new RegExp(`for “${full}”`) })
    .waitFor();
  const [first] = (await api.call('GET', `/search?q=${encodeURIComponent(full)}`)).body;
  expect(first.type).toBe(type);
  return first;
}

/** Leaflet, as a client of the service, reading a `format=geojson` answer with the page's key. */
const LEAFLET_READS_SEARCH = `(async () => {
  const key = sessionStorage.getItem('geocoder.apiKey') ?? localStorage.getItem('geocoder.apiKey');
  const response = await fetch('/search?q=Delft&format=geojson', {
    headers: { 'X-Api-Key': key, Accept: 'application/geo+json' },
  });
  const answer = await response.json();
  const layers = L.geoJSON(answer).getLayers();
  return {
    type: response.headers.get('content-type'),
    features: answer.features.length,
    layers: layers.length,
    first: layers[0].getLatLng(),
    point: answer.features[0].properties,
  };
})()`;
/** Waits until the map has drawn at least one path of this kind. */
const drawn = (className: string) => page.locator(`#map path.${className}`).first().waitFor({ state: 'attached' });

/** Browser-side code is passed as text: the tests are compiled without the DOM library. */
const TRANSFERRED_SO_FAR = `(() => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  return { requests: entries.length, bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0) };
})()`;
const COUNTRIES_DRAWN_AT = `performance.getEntriesByName('countries-drawn')[0]?.startTime`;

async function screenshot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Types into a list's name filter and waits for the filtered answer (its count line) before choosing. */
async function choose(level: string, filterText: string, countText: string, item: RegExp) {
  await page.getByTestId(`filter-${level}`).fill(filterText);
  await page.getByTestId(`count-${level}`).filter({ hasText: countText }).waitFor();
  await page.getByTestId(`items-${level}`).getByRole('button', { name: item }).click();
}

beforeAll(async () => {
  // A failure that says what to do, not playwright's launch stack trace (a skip would hide an untested page).
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH to a Chromium or Chrome`,
    );
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  api = await startTestApi();
  profile = mkdtempSync(join(tmpdir(), 'geocoder-map-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: VIEWPORT,
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
});

afterEach(() => {
  const seen = problems;
  problems = [];
  expect(seen).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.close();
});

describe('the map page', { timeout: 120_000 }, () => {
  it('asks for the key once, keeps it in the browser, and draws countries and Dutch provinces', async () => {
    // Under the page's Content-Security-Policy (a violation is a console error, which fails the test).
    const document = await page.goto(`${api.url}/map/`);
    expect(document?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(document?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    const dialog = page.getByTestId('key-dialog');
    await dialog.waitFor({ state: 'visible' });
    await page.getByLabel(/^Key/).fill(TEST_API_KEY);
    await page.getByTestId('key-save').click();
    await dialog.waitFor({ state: 'hidden' });

    await drawn('area-country');
    const firstVisit = (await page.evaluate(TRANSFERRED_SO_FAR)) as { requests: number; bytes: number };
    // The page opens on the Netherlands: its provinces are drawn over the countries.
    await drawn('base-province');
    expect(await pathCount('area-country')).toBeGreaterThan(1);
    expect(await pathCount('base-province')).toBeGreaterThanOrEqual(12);
    await page
      .getByTestId('status')
      .filter({ hasText: /^Countries drawn/ })
      .waitFor();
    await screenshot('1-countries');

    // Not ticked "remember": the key is this tab's only (sessionStorage), never written to localStorage.
    expect(await page.evaluate(`localStorage.getItem('geocoder.apiKey')`)).toBeNull();
    expect(await page.evaluate(`sessionStorage.getItem('geocoder.apiKey')`)).toBe(TEST_API_KEY);

    // A reload in the same tab is not asked again.
    const started = Date.now();
    await reloadingOnPurpose(() => page.reload());
    await drawn('area-country');
    const reloadWallMs = Date.now() - started;
    expect(await dialog.isVisible()).toBe(false);
    const drawnAfterMs = (await page.evaluate(COUNTRIES_DRAWN_AT)) as number | undefined;
    expect(drawnAfterMs).toBeGreaterThan(0);
    console.log(
      `[map page] first visit until the countries were drawn: ${firstVisit.requests} requests, ` +
        `${firstVisit.bytes} bytes transferred; reload with the kept key: countries drawn ` +
        `${Math.round(drawnAfterMs!)} ms after navigation start (${reloadWallMs} ms wall clock in the test)`,
    );
  });

  it("drills down from the Netherlands to Delft's suburbs and draws them", async () => {
    await choose('country', 'Nether', '1 country', /^Netherlands/);
    await choose('province', 'Zuid', '1 province', /^Zuid-Holland/);
    await choose('municipality', 'Delft', '1 municipality', /^Delft/);
    await drawn('outline');
    // Cities of the municipality, and the municipality's neighbours drawn for the view.
    await page.getByTestId('level-city').getByRole('heading', { name: 'Cities in Delft' }).waitFor();
    expect(await pathCount('area-municipality')).toBeGreaterThan(1);

    await page
      .getByTestId('items-city')
      .getByRole('button', { name: /^Delft/ })
      .click();
    await drawn('area-suburb');
    await page.getByTestId('level-suburb').getByRole('heading', { name: 'Suburbs of Delft' }).waitFor();
    await page
      .getByTestId('items-suburb')
      .getByRole('button', { name: /^Wippolder/ })
      .waitFor();
    await page
      .getByTestId('count-suburb')
      .filter({ hasText: /^\d+ suburbs$/ })
      .waitFor();
    expect(await pathCount('area-suburb')).toBeGreaterThan(1);
    await screenshot('2-delft-suburbs');
  });

  it('suggests while typing and pins the address found on Enter', async () => {
    const input = page.getByRole('combobox', { name: 'Search an address' });
    await input.fill('Mekelweg 8');
    await page
      .getByRole('listbox', { name: 'Suggestions' })
      .getByRole('option', { name: /Mekelweg 8, 2628CD Delft/ })
      .first()
      .waitFor();
    await input.press('Enter');

    const popup = page.getByTestId('pin-popup');
    await popup.waitFor();
    expect(await popup.innerText()).toMatch(/Mekelweg 8\s+2628CD Delft/);
    expect(await page.locator('#map .leaflet-marker-icon').count()).toBe(1);
    expect(await page.getByTestId('search-results').getByRole('button').first().innerText()).toBe(
      'Mekelweg 8, 2628CD Delft',
    );
    expect(await page.getByRole('listbox', { name: 'Suggestions' }).isVisible()).toBe(false);
    // The suburbs chosen before stay drawn under the pin.
    await drawn('area-suburb');
    await screenshot('3-search');
  });

  it('shows the nearest address and the containing areas of a clicked point, and outlines them', async () => {
    const marker = await page.locator('#map .leaflet-marker-icon').boundingBox();
    // The marker's tip is the pinned address; click the map a few metres beside it (not on the marker).
    await page.mouse.click(marker!.x + marker!.width / 2 + 30, marker!.y + marker!.height + 30);

    const municipality = page.getByTestId('reverse-areas').locator('dd[data-level="municipality"]');
    await municipality.waitFor();
    expect(await municipality.innerText()).toBe('Delft (GM0503)');
    expect(await page.getByTestId('reverse-areas').locator('dd[data-level="city"]').innerText()).toMatch(/^Delft/);
    expect(await page.getByTestId('reverse-address').innerText()).toMatch(
      /^\S.* \d+\S*, \d{4}[A-Z]{2} Delft \([\d.]+ m away\)$/,
    );
    await drawn('reverse-area');
    expect(await pathCount('reverse-area')).toBeGreaterThanOrEqual(4);
    await screenshot('4-reverse');
  });

  it('answers small pans from the caches: they ask the service nothing new for the base layer', async () => {
    const countriesAsked = async () => {
      const metrics = await (await fetch(`${api.url}/metrics`)).text();
      return [...metrics.matchAll(/^geocoder_http_requests_total\{route="\/countries\/geojson",[^}]*\} (\d+)$/gm)]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    };
    await networkIdle();
    const before = await countriesAsked();
    const box = (await page.locator('#map').boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // Five drags of 20 px (a few hundred metres at this zoom), each settling past the move debounce.
    for (let i = 0; i < 5; i++) {
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down();
      await page.mouse.move(centre.x - 20, centre.y, { steps: 4 });
      await page.mouse.up();
      await settled();
    }
    // The snapped bbox changes at most once over these pans (when one crosses a grid line); unsnapped it
    // would change on every pan.
    expect((await countriesAsked()) - before).toBeLessThanOrEqual(1);
  });

  it('frames a city and outlines it on Enter, a street by its extent; suggestions show their type', async () => {
    await settled();
    const delft = await searchOnEnter('Delft', /^Delft, Zuid-Holland/, 'city');
    await drawn('outline');
    await networkIdle();
    expectFramed(await mapView(), delft.bbox);
    // The city's boundary (/cities/{id}/geojson), drawn across most of the map, and no pin.
    expect(await pathCount('outline')).toBe(1);
    const map = (await page.locator('#map').boundingBox())!;
    const outline = (await page.locator('#map path.outline').boundingBox())!;
    expect(Math.max(outline.width / map.width, outline.height / map.height)).toBeGreaterThan(0.3);
    expect(await page.locator('#map .leaflet-marker-icon').count()).toBe(0);
    const first = page.getByTestId('search-results').locator('li').first();
    expect(await first.getByRole('button').innerText()).toBe('Delft, Zuid-Holland');
    expect(await first.locator('.type-label').innerText()).toBe('city');
    await screenshot('6-search-city');

    const mekelweg = await searchOnEnter('Mekelw', /^Mekelweg, Delft/, 'street', 'Mekelweg');
    await networkIdle();
    // The street's extent: the rectangle of its bbox, framed.
    expectFramed(await mapView(), mekelweg.bbox);
    expect(await pathCount('outline')).toBe(1);
    expect(await page.getByTestId('search-results').locator('li .type-label').first().innerText()).toBe('street');
    await screenshot('7-search-street');

    // A map library reads the GeoJSON form of /search as it is.
    const read = (await page.evaluate(LEAFLET_READS_SEARCH)) as {
      type: string;
      features: number;
      layers: number;
      first: { lat: number; lng: number };
      point: { latitude: number; longitude: number };
    };
    expect(read.type).toMatch(/^application\/geo\+json/);
    expect(read.layers).toBe(read.features);
    expect(read.first).toEqual({ lat: read.point.latitude, lng: read.point.longitude });
  });

  it('serves the API reference under the same policy without a violation', async () => {
    const docs = await context.newPage();
    // The reference loads without a key (it is open): only the browser's own complaints count here.
    docs.on('console', (message) => {
      if (message.type() === 'error') problems.push(`docs console error: ${message.text()}`);
    });
    docs.on('pageerror', (error) => problems.push(`docs page error: ${error.message}`));
    const answer = await docs.goto(`${api.url}/docs/`);
    expect(answer?.headers()['content-security-policy']).toContain("style-src 'self'");
    await docs.getByText('/geocode/forward').first().waitFor();
    await docs.close();
  });

  it('asks again when the service refuses the key, and works on with a valid one', async () => {
    expectingUnauthorized = true;
    await page.getByRole('button', { name: 'Change API key' }).click();
    const dialog = page.getByTestId('key-dialog');
    await dialog.waitFor({ state: 'visible' });
    await page.getByLabel(/^Key/).fill('not-a-key-of-this-service');
    await page.getByTestId('key-save').click();

    await page
      .getByTestId('key-reason')
      .filter({ hasText: /did not accept that key \(401\)/ })
      .waitFor();
    await dialog.waitFor({ state: 'visible' });
    await page
      .getByTestId('error')
      .filter({ hasText: /401 unauthorized/ })
      .waitFor();
    await screenshot('5-key-refused');

    await page.getByLabel(/^Key/).fill(TEST_API_KEY);
    await page.getByTestId('key-remember').check();
    await page.getByTestId('key-save').click();
    await dialog.waitFor({ state: 'hidden' });
    // Ticked "remember": kept across tabs and visits (localStorage), no longer in the tab's store.
    expect(await page.evaluate(`localStorage.getItem('geocoder.apiKey')`)).toBe(TEST_API_KEY);
    expect(await page.evaluate(`sessionStorage.getItem('geocoder.apiKey')`)).toBeNull();
    // The refused calls have all come back; from here on any error answer fails the test again.
    await networkIdle();
    expectingUnauthorized = false;

    // Calls work again with the valid key.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('combobox', { name: 'Search an address' }).fill('Minervaweg 10a');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('pin-popup').filter({ hasText: 'Minervaweg 10A' }).waitFor();
    expect(await page.getByTestId('error').isVisible()).toBe(false);
  });

  it('shows names in the language picked: Brussels municipalities in French', async () => {
    // The switch reloads the page. Let the previous test's pin move settle first; a view request it still starts
    // late on a loaded machine is cancelled by the reload, which is the browser doing its job, not a failure.
    await settled();
    await reloadingOnPurpose(() =>
      Promise.all([page.waitForEvent('load'), page.getByTestId('language').selectOption('fr')]),
    );
    await choose('country', 'Belg', '1 country', /^Belgium/);
    await choose('province', 'Brussels', '1 province', /^Brussels/);
    await page.getByTestId('filter-municipality').fill('Elsene');
    await page
      .getByTestId('items-municipality')
      .getByRole('button', { name: /^Ixelles/ })
      .waitFor();
    await networkIdle();
  });
});
