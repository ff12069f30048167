/**
 * OpenStreetMap as a source: datasets/osm-liechtenstein.json (an `osm-pbf` extract of Liechtenstein at the country,
 * province, municipality and address levels, Natural Earth for the other countries) indexed by the real indexer
 * into the real Elasticsearch and read back through the API: the eleven Gemeinden under the country's two
 * Wahlkreise, /reverse in Vaduz naming them, the search box and the three dialects answering from OSM's addresses.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexing } from '../../../../indexer/commands/index.js';
import { runUpdate } from '../../../../indexer/commands/update.js';
import type { RunSummary } from '../../../../indexer/execution/summary.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../support/api.js';
import { deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../../support/elasticsearch.js';
import { indexerTestSpace } from '../../../support/indexerTests.js';
import { decodeTile, featuresOf, tilesOver } from '../../../support/vectorTiles.js';

interface Area {
  id: string;
  name: string;
  local_identifier: string;
  country_code?: string;
}

const LIECHTENSTEIN = resolve('data/sample/osm/liechtenstein_2015-07-27.osm.pbf');
const DELFT = resolve('data/sample/osm/delft_tudelft_2025-08.osm.pbf');

/** What osmium (the reference reader) counts in the file: the objects every filter in turn selects. */
function osmiumCount(file: string, ...filters: string[][]): number {
  let opl = execFileSync('osmium', ['tags-filter', '-R', '-f', 'opl', '-o', '-', file, ...(filters[0] ?? [])], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  for (const next of filters.slice(1)) {
    opl = execFileSync('osmium', ['tags-filter', '-R', '-F', 'opl', '-f', 'opl', '-o', '-', '-', ...next], {
      input: opl,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  }
  return opl.split('\n').filter(Boolean).length;
}
const STREET_FILTER = [
  ['w/highway=trunk,primary,secondary,tertiary,unclassified,residential,living_street,pedestrian,road,service'],
  ['w/name'],
];
const PLACE_FILTER = [['n/place=city,town,village,hamlet,suburb,neighbourhood'], ['n/name']];

const space = indexerTestSpace('open-street-map');
const prefix = uniqueIndexPrefix('osm');
let client: Client;
let api: TestApi;
let summary: RunSummary;

const get = async <T>(path: string): Promise<T> => {
  const res = await api.call('GET', path);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body as T;
};

beforeAll(async () => {
  client = space.client;
  summary = await runIndexing({
    client,
    manifestPath: resolve('datasets/osm-liechtenstein.json'),
    indexPrefix: prefix,
    progress: 'none',
    rejectsPath: join(space.tmp, 'rejects.jsonl'),
    handleSignals: false,
  });
  api = await startTestApi({ indexPrefix: prefix });
}, 300_000);

afterAll(async () => {
  await api?.close();
  await deleteIndexesWithPrefix(client, prefix);
});

const GEMEINDEN = [
  'Balzers',
  'Eschen',
  'Gamprin',
  'Mauren',
  'Planken',
  'Ruggell',
  'Schaan',
  'Schellenberg',
  'Triesen',
  'Triesenberg',
  'Vaduz',
];

describe('"format": "osm-pbf"', () => {
  it('indexes or rejects every address object of the extract (osmium counts 1,008) and its boundaries', () => {
    expect(summary.ok).toBe(true);
    const addresses = summary.levels.addresses;
    expect(addresses.read).toBe(1008);
    expect(addresses.indexed + addresses.rejected).toBe(1008);
    expect(summary.levels.municipalities).toMatchObject({ indexed: 11, rejected: 0 });
    expect(summary.levels.provinces).toMatchObject({ indexed: 2, rejected: 0 });
    // Liechtenstein from OpenStreetMap (listed first): Natural Earth's Liechtenstein skipped, its others loaded.
    const [osm, naturalEarth] = summary.levels.countries.sources;
    expect(osm).toMatchObject({ read: 1, rejected: 0 });
    expect(naturalEarth).toMatchObject({ read: 240, skipped: 1 });
  });

  it('updates from the same extract as from any source: nothing added, changed or removed', async () => {
    const update = await runUpdate({
      client,
      manifestPath: resolve('datasets/osm-liechtenstein.json'),
      indexPrefix: prefix,
      progress: 'none',
      handleSignals: false,
      dryRun: true,
    });
    expect(update.ok).toBe(true);
    for (const kind of ['areas', 'addresses', 'streets', 'places'] as const) {
      expect(update.changes?.[kind], kind).toMatchObject({ added: 0, changed: 0, removed: 0 });
    }
  });

  it('reads the named streets and place nodes osmium counts: each way a street, part of one, or skipped', () => {
    const ways = osmiumCount(LIECHTENSTEIN, ...STREET_FILTER);
    expect(ways).toBe(1506);
    const osm = summary.streets.osm!;
    expect(osm.ways).toBe(ways);
    expect(osm.joined + osm.alone + osm.merged + osm.skipped).toBe(ways);
    // Streets beside the addresses' own: every way's name in its Gemeinde once (the Austrian and Swiss ones skipped).
    expect(osm.alone).toBeGreaterThan(300);
    expect(osm.joined).toBeGreaterThan(100);
    expect(osm.skipped).toBeGreaterThan(0);
    const nodes = summary.places.osmNodes!;
    expect(nodes.read).toBe(osmiumCount(LIECHTENSTEIN, ...PLACE_FILTER));
    expect(nodes.read).toBe(23);
    // The eleven villages named as their Gemeinde are the Gemeinde's place; Gamprin-Bendern, Malbun, Steg … are not.
    expect(nodes.skipped).toBe(11);
    expect(nodes.built).toBe(12);
    expect(summary.places.byType.city).toBe(nodes.built - 4);
  });

  it('answers a street with no address from its ways, and one street for an address street and its way', async () => {
    const [lochgass] = await get<any[]>('/search?q=Lochgass');
    expect(lochgass).toMatchObject({ type: 'street', streetname: 'Lochgass', address_count: 0 });
    expect(lochgass.latitude).toBeCloseTo(47.147, 2);
    expect(lochgass.longitude).toBeCloseTo(9.511, 2);
    const suggested = await get<any[]>('/autocomplete?q=lochga');
    expect(suggested[0]).toMatchObject({ type: 'street', streetname: 'Lochgass' });
    // Städtle: the four highway ways of that name in Vaduz join the addresses' streets there (two: one address
    // without addr:city, two with Vaduz), no street of their own.
    const stadtle = await client.search<{ city: string; address_count: number }>({
      index: `${prefix}streets`,
      query: { term: { street_key: 'stadtle' } },
    });
    const streets = stadtle.hits.hits.map((h) => h._source!);
    expect(streets.map((s) => [s.city, s.address_count]).sort()).toEqual([
      ['', 1],
      ['Vaduz', 2],
    ]);
  });

  it('finds the hamlets and villages no Gemeinde is named after: Malbun, Steg', async () => {
    for (const name of ['Malbun', 'Steg']) {
      const [found] = await get<any[]>(`/search?q=${name}`);
      expect(found, name).toMatchObject({ type: 'city', name });
      const suggested = await get<any[]>(`/autocomplete?q=${name.slice(0, 4).toLowerCase()}`);
      expect(
        suggested.some((s) => s.type === 'city' && s.id === found.id),
        name,
      ).toBe(true);
    }
    // Vaduz is the Gemeinde, once: its village node is not a second place.
    const vaduz = (await get<any[]>('/search?q=Vaduz')).filter((p) => p.name === 'Vaduz');
    expect(vaduz.map((p) => p.type)).toEqual(['municipality']);
  });

  it("lists Liechtenstein's two Wahlkreise and eleven Gemeinden under it", async () => {
    const [liechtenstein, ...others] = await get<Area[]>('/countries?country_code=LI');
    expect(others).toEqual([]);
    expect(liechtenstein).toMatchObject({ name: 'Liechtenstein', local_identifier: 'LI' });
    const provinces = await get<Area[]>(`/countries/${liechtenstein!.id}/provinces`);
    expect(provinces.map((p) => p.name).sort()).toEqual(['Wahlkreis Oberland', 'Wahlkreis Unterland']);
    const municipalities: string[] = [];
    for (const p of provinces) {
      municipalities.push(...(await get<Area[]>(`/provinces/${p.id}/municipalities`)).map((m) => m.name));
    }
    expect(municipalities.sort()).toEqual(GEMEINDEN);
  });

  it("draws the eleven Gemeinden on the map page's boundary tiles", async () => {
    const names = new Set<string>();
    for (const { x, y } of tilesOver([9.47, 47.04, 9.64, 47.28], 10)) {
      const res = await fetch(`${api.url}/tiles/boundaries/10/${x}/${y}.mvt`, {
        headers: { 'x-api-key': TEST_API_KEY },
      });
      expect(res.status).toBe(200);
      const tile = decodeTile(new Uint8Array(await res.arrayBuffer()));
      for (const f of featuresOf(tile, 'municipalities')) names.add(String(f.properties.name));
    }
    expect([...names].sort()).toEqual(GEMEINDEN);
  });

  it('/reverse in Vaduz names the address, its Gemeinde, Wahlkreis and country', async () => {
    const body = await get<any>('/reverse?lat=47.1381654&lon=9.5227332');
    expect(body.addresses[0]).toMatchObject({ streetname: 'Städtle', number: '43' });
    expect(body.areas).toMatchObject({
      country: { name: 'Liechtenstein' },
      province: { name: 'Wahlkreis Oberland' },
      municipality: { name: 'Vaduz' },
    });
  });

  it('answers the search box and the three dialects from the OSM addresses alike', async () => {
    const q = 'Städtle 43 Vaduz';
    const fetchJson = async (path: string, params: Record<string, string>) => {
      const res = await fetch(`${api.url}${path}?${new URLSearchParams(params)}`, {
        headers: { 'x-api-key': TEST_API_KEY },
      });
      expect(res.status, path).toBe(200);
      return (await res.json()) as any;
    };
    const [native] = await fetchJson('/search', { q });
    expect(native).toMatchObject({ streetname: 'Städtle', number: '43' });
    const [nominatim] = await fetchJson('/nominatim/search', { q, format: 'json' });
    const [photon] = (await fetchJson('/photon/api', { q })).features;
    const [pelias] = (await fetchJson('/pelias/v1/search', { text: q })).features;
    expect(nominatim.place_id).toBe(native.id);
    expect(photon.properties.id).toBe(native.id);
    expect(pelias.properties.id).toBe(native.id);
    // The address keeps the OpenStreetMap object it came from.
    const record = await get<any>(`/addresses/${native.id}`);
    expect(record.source_ids).toEqual({ osm: 'node/315636837' });
  });
});

describe('registers and OpenStreetMap in one deployment (datasets/osm-mixed.json)', () => {
  const mixed = uniqueIndexPrefix('osm-mixed');
  let mixedSummary: RunSummary;
  let mixedApi: TestApi;
  beforeAll(async () => {
    mixedSummary = await runIndexing({
      client,
      manifestPath: resolve('datasets/osm-mixed.json'),
      indexPrefix: mixed,
      progress: 'none',
      rejectsPath: join(space.tmp, 'mixed-rejects.jsonl'),
      handleSignals: false,
    });
    mixedApi = await startTestApi({ indexPrefix: mixed });
  }, 300_000);
  afterAll(async () => {
    await mixedApi?.close();
    await deleteIndexesWithPrefix(client, mixed);
  });

  it("keeps CBS's Dutch municipalities over the Delft extract's (listed after them) and OSM's Gemeinden", async () => {
    expect(mixedSummary.ok).toBe(true);
    const [cbs, liechtenstein, delftExtract] = mixedSummary.levels.municipalities.sources;
    expect(cbs).toMatchObject({ read: 342 });
    expect(liechtenstein).toMatchObject({ read: 11 });
    // Read, then skipped: the Netherlands already has its municipalities from the source listed first.
    expect(delftExtract).toMatchObject({ read: 0, skipped: 2 });
    const delft = (await mixedApi.call('GET', '/reverse?lat=51.9953593&lon=4.3734803')).body;
    expect(delft.addresses[0]).toMatchObject({ streetname: 'Mekelweg', number: '8' });
    expect(delft.areas.municipality).toMatchObject({ name: 'Delft', local_identifier: 'GM0503' });
    const vaduz = (await mixedApi.call('GET', '/reverse?lat=47.1381654&lon=9.5227332')).body;
    expect(vaduz.areas).toMatchObject({ country: { name: 'Liechtenstein' }, municipality: { name: 'Vaduz' } });
    const [found] = (await mixedApi.call('GET', `/search?${new URLSearchParams({ q: 'Städtle 43 Vaduz' })}`)).body;
    expect(found).toMatchObject({ streetname: 'Städtle', number: '43' });
  });

  it("keeps the Delft CSV's addresses over the Delft extract's (listed after it): skipped and counted", () => {
    const [csv, liechtenstein, delftExtract] = mixedSummary.levels.addresses.sources;
    expect(liechtenstein).toMatchObject({ read: 1008 });
    // Every address object of the extract lies in the Netherlands, which the CSV listed first has: none loaded.
    const objects = osmiumCount(DELFT, ['n/addr:housenumber', 'w/addr:housenumber', 'r/addr:housenumber']);
    expect(delftExtract!.skipped + delftExtract!.rejected).toBe(objects);
    expect(delftExtract!.read).toBe(delftExtract!.rejected);
    expect(mixedSummary.levels.addresses.skipped).toBe(delftExtract!.skipped);
    const level = mixedSummary.levels.addresses;
    expect(level.read).toBe(csv!.read + liechtenstein!.read + delftExtract!.read);
    expect(level.read).toBe(level.indexed + level.rejected);
  });
});
