/**
 * OpenStreetMap as a source: datasets/osm-liechtenstein.json (an `osm-pbf` extract of Liechtenstein at the country,
 * province, municipality and address levels, Natural Earth for the other countries) indexed by the real indexer
 * into the real Elasticsearch and read back through the API: the eleven Gemeinden under the country's two
 * Wahlkreise, /reverse in Vaduz naming them, the search box and the three dialects answering from OSM's addresses.
 */
import { join, resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexing } from '../../indexer/commands/index.js';
import { runUpdate } from '../../indexer/commands/update.js';
import type { RunSummary } from '../../indexer/execution/summary.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../support/api.js';
import { deleteIndexesWithPrefix, uniqueIndexPrefix } from '../support/elasticsearch.js';
import { indexerTestSpace } from '../support/indexerTests.js';
import { decodeTile, featuresOf, tilesOver } from '../support/vectorTiles.js';

interface Area {
  id: string;
  name: string;
  local_identifier: string;
  country_code?: string;
}

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
});
