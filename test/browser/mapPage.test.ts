/**
 * The map page (/map/) in a real browser: Debian's chromium with software WebGL (SwiftShader), driven by
 * playwright-core, against the API in this process over the real Elasticsearch holding the sample. The tests do what
 * a user does (type, click) and read what a user sees (panel text, the pixels MapLibre drew, the popup). Any console error, uncaught page error, failed
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
/** Every URL the page (and its workers) asked for. */
const requested: string[] = [];
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
    // MapLibre cancels the tiles a view change no longer needs (a slow machine leaves more of them in flight).
    if (errorText === 'net::ERR_ABORTED' && request.url().includes('/tiles/boundaries/')) return;
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
    requested.push(request.url());
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

/**
 * MapLibre fades new tiles in over 300 ms, and a move the last step set off starts within a frame or two: a wait for
 * the screenshots, not an assertion.
 */
const VIEW_DEBOUNCE_WAIT_MS = 600;
/**
 * Past a move's debounced requests too: the last move (a pin, a framed place) has asked and been answered. The page
 * says when (`data-view-layers`, web/map/viewportLayers.js), however late a loaded machine runs its 250 ms debounce.
 */
async function settled() {
  await page.waitForTimeout(VIEW_DEBOUNCE_WAIT_MS);
  await page.locator('#map[data-view-layers="idle"]').waitFor({ state: 'attached' });
  await networkIdle();
}

/** How many features one of the page's overlays draws (web/map/overlays.js notes it on the map element). */
const overlayCount = async (name: string) => Number(await page.getByTestId('map').getAttribute(`data-overlay-${name}`));

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

/** Until the page has drawn its first boundary tiles (web/map/main.js notes it on the map element). */
const boundariesDrawn = () => page.locator('#map[data-boundaries="drawn"]').waitFor({ state: 'attached' });

/** Browser-side code is passed as text: the tests are compiled without the DOM library. */
const TRANSFERRED_SO_FAR = `(() => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  return { requests: entries.length, bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0) };
})()`;
const BOUNDARIES_DRAWN_AT = `performance.getEntriesByName('boundaries-drawn')[0]?.startTime`;

type Rgb = [number, number, number];
const hex = (colour: string): Rgb => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as Rgb;
const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
/** The colours of web/map/styles.js the checks look for. */
const MUNICIPALITY_LINE = hex('#1b7f72');
/** The selection's fill (#f4c542 at 0.45) over the country's (#f7f4ec). */
const SELECTED = [0.45, 0.55].reduce(
  (sum, share, i) => {
    const colour = hex(['#f4c542', '#f7f4ec'][i]!);
    return sum.map((v, c) => v + share * colour[c]!) as Rgb;
  },
  [0, 0, 0] as Rgb,
);

/** Where a point is on the map's canvas, in CSS pixels from its top left, from the view the page notes (Mercator). */
async function pixelOf(point: number[]): Promise<{ x: number; y: number }> {
  const [lon, lat] = point as [number, number];
  const [west, south, east, north] = await mapView();
  const box = (await page.getByTestId('map').boundingBox())!;
  const mercator = (latitude: number) => Math.log(Math.tan(Math.PI / 4 + (latitude * Math.PI) / 360));
  return {
    x: ((lon - west) / (east - west)) * box.width,
    y: ((mercator(north) - mercator(lat)) / (mercator(north) - mercator(south))) * box.height,
  };
}

/** Decodes a PNG in a blank page of the same browser: the colours of the pixels within `radius` of each point. */
const PIXELS_AROUND = `async ({ png, points, radius }) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return points.map(({ x, y }) => {
    const data = context.getImageData(Math.round(x) - radius, Math.round(y) - radius, 2 * radius + 1, 2 * radius + 1).data;
    const colours = [];
    for (let i = 0; i < data.length; i += 4) colours.push([data[i], data[i + 1], data[i + 2]]);
    return colours;
  });
}`;

/** The colours the map shows within `radius` CSS pixels of each point (a screenshot of the map at 1 device px/px). */
async function coloursAround(points: { x: number; y: number }[], radius: number): Promise<Rgb[][]> {
  const png = (await page.getByTestId('map').screenshot()).toString('base64');
  const blank = await context.newPage();
  try {
    return await blank.evaluate<Rgb[][]>(`(${PIXELS_AROUND})(${JSON.stringify({ png, points, radius })})`);
  } finally {
    await blank.close();
  }
}

/** Shows `#zoom/lat/lon` (MapLibre's hash) and waits until its tiles are in and drawn (the page's `data-idle`). */
async function goToView(zoom: number, point: number[]) {
  const [lon, lat] = point as [number, number];
  await page.evaluate(`location.hash = '#${zoom}/${lat}/${lon}'`);
  await page.locator(`#map[data-zoom="${zoom.toFixed(3)}"][data-idle="true"]`).waitFor({ state: 'attached' });
  await settled();
}

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
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      // WebGL without a GPU: ANGLE on SwiftShader, Chromium's software renderer (MapLibre draws with WebGL 2).
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  watchForProblems(page);
});

afterEach(async () => {
  // What the page itself reports (a tile MapLibre could not load, an API error) is a problem too.
  if (!expectingUnauthorized && (await page.getByTestId('error').isVisible())) {
    problems.push(
      `the page shows an error: ${await page
        .locator('#error-text')
        .innerText()
        .catch(() => '?')}`,
    );
  }
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
  /** Delft's municipality: its id, its outline (unsimplified) and the point inside it where its label goes. */
  let delft: { id: string; ring: number[][]; inside: number[] };

  beforeAll(async () => {
    const nl = (await api.call('GET', '/countries?country_code=NL')).body[0];
    const zh = (await api.call('GET', `/countries/${nl.id}/provinces?name=Zuid-Holland`)).body[0];
    const { id } = (await api.call('GET', `/provinces/${zh.id}/municipalities?name=Delft`)).body[0];
    const shape = (await api.call('GET', `/municipalities/${id}/geojson`)).body.features[0];
    const centroid = (await api.call('GET', `/municipalities/${id}/geojson?geometry=centroid`)).body.features[0];
    const outer = shape.geometry.type === 'Polygon' ? shape.geometry.coordinates[0] : shape.geometry.coordinates[0][0];
    delft = { id, ring: outer, inside: centroid.geometry.coordinates };
  });

  it('asks for the key once, keeps it in the browser, and draws the boundary tiles', async () => {
    // Under the page's Content-Security-Policy (a violation is a console error, which fails the test).
    const document = await page.goto(`${api.url}/map/`);
    expect(document?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(document?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    const dialog = page.getByTestId('key-dialog');
    await dialog.waitFor({ state: 'visible' });
    await page.getByLabel(/^Key/).fill(TEST_API_KEY);
    await page.getByTestId('key-save').click();
    await dialog.waitFor({ state: 'hidden' });

    await boundariesDrawn();
    const firstVisit = await page.evaluate<{ requests: number; bytes: number }>(TRANSFERRED_SO_FAR);
    await page
      .getByTestId('status')
      .filter({ hasText: /^Boundaries drawn/ })
      .waitFor();
    await networkIdle();
    await screenshot('1-boundaries');

    // Not ticked "remember": the key is this tab's only (sessionStorage), never written to localStorage.
    expect(await page.evaluate(`localStorage.getItem('geocoder.apiKey')`)).toBeNull();
    expect(await page.evaluate(`sessionStorage.getItem('geocoder.apiKey')`)).toBe(TEST_API_KEY);

    // A reload in the same tab is not asked again.
    const started = Date.now();
    await reloadingOnPurpose(() => page.reload());
    await boundariesDrawn();
    const reloadWallMs = Date.now() - started;
    expect(await dialog.isVisible()).toBe(false);
    const drawnAfterMs = await page.evaluate<number | undefined>(BOUNDARIES_DRAWN_AT);
    expect(drawnAfterMs).toBeGreaterThan(0);
    console.log(
      `[map page] first visit until the boundaries were drawn: ${firstVisit.requests} requests, ` +
        `${firstVisit.bytes} bytes transferred; reload with the kept key: boundaries drawn ` +
        `${Math.round(drawnAfterMs!)} ms after navigation start (${reloadWallMs} ms wall clock in the test)`,
    );
  });

  it("draws a municipality's boundary from the tiles where the boundary is, and not in the sea", async () => {
    // Zoom 8, where the municipalities start (docs/tiles.md), on Delft.
    await goToView(8, delft.inside);
    expect(requested.filter((url) => url.includes('/tiles/boundaries/8/')).length).toBeGreaterThan(0);
    // Every tenth vertex of Delft's outline (the tiles simplify by up to 2 px: a few pixels around each).
    const vertices = delft.ring.filter((_, i) => i % 10 === 0);
    const onBoundary = await Promise.all(vertices.map(pixelOf));
    // The North Sea off Scheveningen: no boundary there.
    const sea = await pixelOf([3.9, 52.15]);
    const colours = await coloursAround([...onBoundary, sea], 3);
    const near = (pixels: Rgb[]) => Math.min(...pixels.map((pixel) => distance(pixel, MUNICIPALITY_LINE)));
    const hits = colours.slice(0, -1).filter((pixels) => near(pixels) < 60).length;
    // Nearly every vertex has the municipalities' line colour within 3 px; the sea has none of it.
    expect(hits / vertices.length).toBeGreaterThan(0.8);
    expect(near(colours[colours.length - 1]!)).toBeGreaterThan(100);
    await screenshot('2-municipalities-z8');
  });

  it('selects the municipality clicked at zoom 8, fills it, and answers what lies there', async () => {
    const point = await pixelOf(delft.inside);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + point.x, box.y + point.y);
    const selected = page.getByTestId('selected-panel');
    await selected.filter({ hasText: 'Municipality Delft (GM0503)' }).waitFor();
    expect(await selected.getAttribute('data-level')).toBe('municipality');
    expect(await selected.getAttribute('data-id')).toBe(delft.id);
    // The reverse panel says the same from /reverse.
    const municipality = page.getByTestId('reverse-areas').locator('dd[data-level="municipality"]');
    await municipality.filter({ hasText: 'Delft (GM0503)' }).waitFor();
    await settled();
    await screenshot('3-selected');
    // The selected area is filled: the selection colour around the click (its label covers the point itself).
    const [around] = await coloursAround([point], 8);
    expect(around!.filter((pixel) => distance(pixel, SELECTED) < 20).length).toBeGreaterThan(10);
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
    expect(await page.locator('#map .pin').count()).toBe(1);
    expect(await page.getByTestId('search-results').getByRole('button').first().innerText()).toBe(
      'Mekelweg 8, 2628CD Delft',
    );
    expect(await page.getByRole('listbox', { name: 'Suggestions' }).isVisible()).toBe(false);
    await settled();
    await screenshot('4-search');
  });

  it('suggests a Brussels address typed as people write it, while it is typed (issue 49)', async () => {
    const input = page.getByRole('combobox', { name: 'Search an address' });
    const suggestion = page
      .getByRole('listbox', { name: 'Suggestions' })
      .getByRole('option', { name: /Rue Neuve 16, 1000 Bruxelles/ })
      .first();
    // Key by key, as a visitor types: the address is offered once the city is begun, and still when it is whole.
    await input.fill('');
    await input.pressSequentially('Rue Neuve 16, Bru');
    await suggestion.waitFor();
    await input.pressSequentially('xelles');
    await suggestion.waitFor();
    // The postcode instead of the city, and the number first as envelopes write it.
    for (const text of ['Rue Neuve 16, 1000', '16 Rue Neuve, 1000 Bruxelles']) {
      await input.fill(text);
      await suggestion.waitFor();
    }
    await input.fill('');
  });

  it('shows the nearest address and the containing areas of a clicked point, and outlines them', async () => {
    const marker = (await page.locator('#map .pin').boundingBox())!;
    // The marker's tip is the pinned address; click the map a few metres beside it (not on the marker).
    await page.mouse.click(marker.x + marker.width / 2 + 30, marker.y + marker.height + 30);

    const municipality = page.getByTestId('reverse-areas').locator('dd[data-level="municipality"]');
    await municipality.filter({ hasText: 'Delft (GM0503)' }).waitFor();
    expect(await page.getByTestId('reverse-areas').locator('dd[data-level="city"]').innerText()).toMatch(/^Delft/);
    expect(await page.getByTestId('reverse-address').innerText()).toMatch(
      /^\S.* \d+\S*, \d{4}[A-Z]{2} Delft \([\d.]+ m away\)$/,
    );
    await page.locator('#map:not([data-overlay-reverse="0"])').waitFor({ state: 'attached' });
    expect(await overlayCount('reverse')).toBeGreaterThanOrEqual(4);
    // At zoom 15 the finest level drawn is the buildings': the click selected a suburb or a building there.
    await page.getByTestId('selected-panel').waitFor();
    await settled();
    await screenshot('5-reverse');
  });

  it("drills down from the Netherlands to Delft's suburbs and draws them", async () => {
    await choose('country', 'Nether', '1 country', /^Netherlands/);
    await choose('province', 'Zuid', '1 province', /^Zuid-Holland/);
    await choose('municipality', 'Delft', '1 municipality', /^Delft/);
    await page.getByTestId('level-city').getByRole('heading', { name: 'Cities in Delft' }).waitFor();
    expect(await overlayCount('outline')).toBe(1);

    await page
      .getByTestId('items-city')
      .getByRole('button', { name: /^Delft/ })
      .click();
    await page.getByTestId('level-suburb').getByRole('heading', { name: 'Suburbs of Delft' }).waitFor();
    await page
      .getByTestId('items-suburb')
      .getByRole('button', { name: /^Wippolder/ })
      .waitFor();
    await page
      .getByTestId('count-suburb')
      .filter({ hasText: /^\d+ suburbs$/ })
      .waitFor();
    await settled();
    // The chosen city's suburbs in view, drawn over the tiles by the browse panel.
    await page
      .getByTestId('status')
      .filter({ hasText: /^\d+ suburbs of Delft in view$/ })
      .waitFor();
    await screenshot('6-delft-suburbs');
  });

  it('frames a city and outlines it on Enter, a street by its extent; suggestions show their type', async () => {
    await settled();
    const delftCity = await searchOnEnter('Delft', /^Delft, Zuid-Holland/, 'city');
    await page.locator('#map[data-overlay-outline="1"]').waitFor({ state: 'attached' });
    await networkIdle();
    expectFramed(await mapView(), delftCity.bbox);
    expect(await page.locator('#map .pin').count()).toBe(0);
    const first = page.getByTestId('search-results').locator('li').first();
    expect(await first.getByRole('button').innerText()).toBe('Delft, Zuid-Holland');
    expect(await first.locator('.type-label').innerText()).toBe('city');
    await settled();
    await screenshot('7-search-city');

    const mekelweg = await searchOnEnter('Mekelw', /^Mekelweg, Delft/, 'street', 'Mekelweg');
    await networkIdle();
    // The street's extent: the rectangle of its bbox, framed.
    expectFramed(await mapView(), mekelweg.bbox);
    expect(await overlayCount('outline')).toBe(1);
    expect(await page.getByTestId('search-results').locator('li .type-label').first().innerText()).toBe('street');
    await settled();
    await screenshot('8-search-street');
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
    await settled();
    expect(await page.getByTestId('error').isVisible()).toBe(false);
  });

  it('shows names in the language picked: the Brussels region and its municipalities in French', async () => {
    // The switch reloads the page. Let the previous test's pin move settle first; a view request it still starts
    // late on a loaded machine is cancelled by the reload, which is the browser doing its job, not a failure.
    await settled();
    await reloadingOnPurpose(() =>
      Promise.all([page.waitForEvent('load'), page.getByTestId('language').selectOption('fr')]),
    );
    await choose('country', 'Belg', '1 country', /^Belgium/);
    // The region by its French name, named in French (Belgium's provinces carry their three languages' names).
    await choose('province', 'Bruxelles', '1 province', /^Région de Bruxelles-Capitale/);
    await page.getByTestId('filter-municipality').fill('Elsene');
    await page
      .getByTestId('items-municipality')
      .getByRole('button', { name: /^Ixelles/ })
      .waitFor();
    await networkIdle();

    // The tiles' names follow the same choice (name:fr): a click on Ixelles/Elsene at zoom 8 names it in French.
    const be = (await api.call('GET', '/countries?country_code=BE')).body[0];
    const brussels = (await api.call('GET', `/countries/${be.id}/provinces?name=Brussels`)).body[0];
    const { id } = (await api.call('GET', `/provinces/${brussels.id}/municipalities?name=Elsene`)).body[0];
    const inside = (await api.call('GET', `/municipalities/${id}/geojson?geometry=centroid`)).body.features[0].geometry
      .coordinates as number[];
    await goToView(8, inside);
    const point = await pixelOf(inside);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + point.x, box.y + point.y);
    await settled();
    await screenshot('9-brussels-in-french');
    await page
      .getByTestId('selected-area')
      .filter({ hasText: /^Municipality / })
      .waitFor();
    expect(await page.getByTestId('selected-area').innerText()).toMatch(/^Municipality Ixelles/);
  });
});
