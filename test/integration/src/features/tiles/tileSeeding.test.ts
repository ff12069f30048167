/**
 * Boundary tiles cut ahead by the seeding worker, against the real sample: once seeding is complete, a tile of the
 * seeded range comes from the store already compressed and is the tile cut on demand (an API with seeding off cuts
 * it); a tile outside the range (countries only, or past the seeded zoom) is still cut; an empty tile of the range is
 * a 204; and a new generation is served from its own tiles, never the last one's.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENERATION_TTL_MS } from '../../../../../src/indexes/generations.js';
import { SampleDeployment } from '../../../../support/sampleDeployment.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import { decodeTile, featuresOf, tilesOver } from '../../../../support/vectorTiles.js';

/** Seeded to zoom 11 (every zoom the same code cuts; zoom 14's 70,000 tiles would take a loaded machine minutes). */
const SEEDED = { TILE_SEEDING: 'true', TILE_SEED_MAX_ZOOM: '11' };
const NL_BE: [number, number, number, number] = [2.5, 49.45, 7.25, 53.6];
/** Delft's tiles at zooms 11 and 12 (the second past the seeded zoom). */
const DELFT_11 = [11, 1048, 676] as const;
const DELFT_12 = [12, 2097, 1352] as const;

let seeded: TestApi;
let onDemand: TestApi;

async function tile(api: TestApi, [z, x, y]: readonly [number, number, number], encoding = 'br, gzip') {
  const res = await fetch(`${api.url}/tiles/boundaries/${z}/${x}/${y}.mvt`, {
    headers: { 'x-api-key': TEST_API_KEY, 'accept-encoding': encoding },
  });
  // fetch decodes the body; the header says how it came.
  return {
    status: res.status,
    encoding: res.headers.get('content-encoding'),
    etag: res.headers.get('etag'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** Waits until /health says the seeding of the live generation is complete; its status. */
async function seedingComplete(api: TestApi, timeoutMs = 200_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seeding = (await api.call('GET', '/health')).body.tile_seeding;
    if (seeding?.state === 'complete') return seeding;
    if (!seeding || seeding.state !== 'seeding' || Date.now() > deadline) {
      throw new Error(`seeding: ${JSON.stringify(seeding)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  [seeded, onDemand] = await Promise.all([startTestApi({ env: SEEDED }), startTestApi()]);
  // Any answer reading the areas makes the API notice the generation and start seeding it.
  await seeded.call('GET', '/tiles/boundaries.json');
  await seedingComplete(seeded);
});

afterAll(async () => {
  await Promise.all([seeded?.close(), onDemand?.close()]);
});

describe('tiles cut ahead', () => {
  it('are the tiles cut on demand, sent compressed as they were stored', async () => {
    const seeding = (await seeded.call('GET', '/health')).body.tile_seeding;
    expect(seeding.tiles).toBeGreaterThan(1000);
    expect(seeding.stats.tiles).toBe(seeding.tiles);
    let compared = 0;
    let fromStore = 0;
    for (let z = 0; z <= 11; z++) {
      // Every tile to zoom 8 over NL+BE, and a band across Zuid-Holland deeper.
      const box: [number, number, number, number] = z <= 8 ? NL_BE : [3.9, 51.9, 4.7, 52.1];
      for (const { x, y } of tilesOver(box, z)) {
        const [ours, theirs] = await Promise.all([tile(seeded, [z, x, y]), tile(onDemand, [z, x, y])]);
        expect(ours.status, `${z}/${x}/${y}`).toBe(theirs.status);
        if (theirs.status === 204) continue;
        expect(ours.bytes.equals(theirs.bytes), `${z}/${x}/${y}`).toBe(true);
        expect(ours.etag).toBe(theirs.etag);
        compared++;
        // Stored compressed, it goes out so whatever its size (cut on demand, a tile under 1 kB goes out as it is).
        if (ours.encoding === 'br' && theirs.encoding === null) fromStore++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(fromStore).toBeGreaterThan(10);
    // gzip alone, and neither: the same tile.
    const br = await tile(seeded, DELFT_11);
    const gzip = await tile(seeded, DELFT_11, 'gzip');
    const identity = await tile(seeded, DELFT_11, 'identity');
    expect([br.encoding, gzip.encoding, identity.encoding]).toEqual(['br', 'gzip', null]);
    expect(gzip.bytes.equals(br.bytes) && identity.bytes.equals(br.bytes)).toBe(true);
  });

  it('leave tiles outside the seeded range to be cut on demand', async () => {
    // Spain holds a country only (z 5); Delft at zoom 12 is past the seeded zoom.
    for (const at of [[5, 15, 12] as const, DELFT_12]) {
      const [ours, theirs] = await Promise.all([tile(seeded, at), tile(onDemand, at)]);
      expect(ours.status, at.join('/')).toBe(200);
      expect(ours.bytes.equals(theirs.bytes)).toBe(true);
    }
    const delft = featuresOf(decodeTile((await tile(seeded, DELFT_12)).bytes), 'municipalities');
    expect(delft.map((f) => f.properties.name)).toContain('Delft');
  });

  it('answer 204 for an empty tile of the range', async () => {
    // The North Sea off Zeeland, inside the extent of NL+BE's municipalities.
    const sea = [11, 1041, 678] as const;
    expect((await tile(seeded, sea)).status).toBe(204);
    expect((await tile(onDemand, sea)).status).toBe(204);
  });
});

describe('a new generation', () => {
  it('is served from its own tiles: cut on demand until its seeding is complete, then from its store', async () => {
    // A deployment of its own whose aliases point at the sample's indexes; its areas are then copied into a new
    // generation with Delft renamed, and the alias swapped, as the indexer does.
    const deployment = await SampleDeployment.over(seeded.client, inject('samplePrefix'), 'seed');
    const own = await startTestApi({ indexPrefix: deployment.prefix, env: SEEDED });
    const names = async () => {
      const res = await tile(own, DELFT_11);
      expect(res.status).toBe(200);
      const decoded = decodeTile(res.bytes);
      const shapes = featuresOf(decoded, 'municipalities').map((f) => f.properties.name);
      const labels = featuresOf(decoded, 'labels')
        .filter((f) => f.properties.level === 'municipality')
        .map((f) => f.properties.name);
      return { shapes, labels, encoding: res.encoding };
    };
    try {
      await own.call('GET', '/tiles/boundaries.json');
      await seedingComplete(own);
      expect((await names()).shapes).toContain('Delft');

      await deployment.swapAreas({
        change: (source) =>
          source.name === 'Delft' && source.level === 'municipality' ? { ...source, name: 'Delft (nieuw)' } : source,
      });
      await new Promise((resolve) => setTimeout(resolve, GENERATION_TTL_MS + 100));

      // Right after the swap (the new generation's seeding under way): the new name, in the shapes and the labels.
      const during = await names();
      expect(during.shapes).toContain('Delft (nieuw)');
      expect([...during.shapes, ...during.labels]).not.toContain('Delft');
      const seeding = await seedingComplete(own);
      expect(seeding.generation).toContain(deployment.nextAreas);
      const after = await names();
      expect(after.shapes).toContain('Delft (nieuw)');
      expect([...after.shapes, ...after.labels]).not.toContain('Delft');
      expect(after.encoding).toBe('br');
    } finally {
      await own.close();
      await deployment.remove();
    }
  });
});
