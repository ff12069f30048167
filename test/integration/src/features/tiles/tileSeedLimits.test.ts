/**
 * The seeding's limits, against the real sample: a worker that hangs is killed by the watchdog (TILE_SEED_STALL_MS)
 * and /health says `stalled` with why; a store that reaches its cap (TILE_SEED_MAX_BYTES) stops the seeding and
 * /health says `capped`. Either way every tile still answers, cut on demand where the store has nothing, as an API
 * that never seeds answers it. The order is the seeding's own: the test awaits its change of state, never a clock.
 */
import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tileSeedingOf } from '../../../../../src/config/tileSeeding.js';
import { forkSeedWorker, type SeedStatus, TileSeeds } from '../../../../../src/features/tiles/seed/tileSeeds.js';
import { TILE_SOURCE_CHANNEL } from '../../../../../src/features/tiles/tileRepository.js';
import { Health } from '../../../../../src/schemas/responses.js';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../../support/api.js';
import { tilesOver } from '../../../../support/vectorTiles.js';

const HANGING_WORKER = new URL('../../../../support/hangingSeedWorker.ts', import.meta.url);
const NL_BE: [number, number, number, number] = [2.5, 49.45, 7.25, 53.6];
const DELFT_11 = [11, 1048, 676] as const;

let onDemand: TestApi;

beforeAll(async () => {
  onDemand = await startTestApi();
});

afterAll(async () => {
  await onDemand?.close();
});

/** Tiles cut ahead as TILE_SEED_* in `env` say, the worker started by `start` (kept for the test to watch). */
function seedsOf(env: NodeJS.ProcessEnv, start: (heapMb: number) => ChildProcess = forkSeedWorker) {
  const workers: ChildProcess[] = [];
  const seeds = new TileSeeds(
    tileSeedingOf({ TILE_SEEDING: 'true', TILE_SEED_MAX_ZOOM: '11', ...env }),
    { url: inject('elasticsearchUrl'), requestTimeoutMs: 10_000 },
    undefined,
    (heapMb) => {
      const worker = start(heapMb);
      workers.push(worker);
      return worker;
    },
  );
  // The first change past `seeding`: the seeding has ended, whichever way.
  const ended = new Promise<SeedStatus>((resolve) =>
    seeds.onChange((status) => {
      if (status.state !== 'seeding') resolve(status);
    }),
  );
  return { seeds, workers, ended };
}

async function exited(worker: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (worker.exitCode === null && worker.signalCode === null) await once(worker, 'exit');
  return worker.signalCode ?? worker.exitCode;
}

async function tile(api: TestApi, [z, x, y]: readonly [number, number, number]) {
  const res = await fetch(`${api.url}/tiles/boundaries/${z}/${x}/${y}.mvt`, {
    headers: { 'x-api-key': TEST_API_KEY, 'accept-encoding': 'br, gzip' },
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function seedingOnHealth(api: TestApi) {
  const health = await api.call('GET', '/health');
  return Health.parse(health.body).tile_seeding;
}

describe('a seeding worker that hangs', () => {
  it('is killed once silent for TILE_SEED_STALL_MS; /health says stalled and why; the tiles are cut on demand', async () => {
    const { seeds, workers, ended } = seedsOf({ TILE_SEED_STALL_MS: '50' }, (heapMb) =>
      forkSeedWorker(heapMb, HANGING_WORKER),
    );
    const api = await startTestApi({ tileSeeds: seeds });
    try {
      // Any answer reading the areas makes the API notice the generation and start seeding it.
      await api.call('GET', '/tiles/boundaries.json');
      const status = await ended;
      expect(status.state).toBe('stalled');
      expect(status.reason).toMatch(/no progress for 50 ms \(TILE_SEED_STALL_MS\)/);
      expect(status.tiles).toBe(0);
      expect(workers).toHaveLength(1);
      expect(await exited(workers[0]!)).toBe('SIGKILL');

      const shown = await seedingOnHealth(api);
      expect(shown).toMatchObject({ state: 'stalled', reason: status.reason, tiles: 0 });

      const [ours, theirs] = await Promise.all([tile(api, DELFT_11), tile(onDemand, DELFT_11)]);
      expect(ours.status).toBe(200);
      expect(ours.bytes.equals(theirs.bytes)).toBe(true);
      // Not seeded again for the same generation: still the one worker.
      expect(workers).toHaveLength(1);
    } finally {
      seeds.stop();
      await api.close();
    }
  });
});

describe('the seeded store’s cap', () => {
  it('stops the seeding when reached; /health says capped; the tiles past it are cut on demand', async () => {
    // A few of the first tiles (zooms 0-3 on the sample: 4 tiles, 95 kB), far from all of them.
    const cap = 250_000;
    const { seeds, workers, ended } = seedsOf({ TILE_SEED_MAX_BYTES: String(cap) });
    const api = await startTestApi({ tileSeeds: seeds });
    const sources: string[] = [];
    const listen = (message: unknown) => sources.push((message as { source: string }).source);
    subscribe(TILE_SOURCE_CHANNEL.name, listen);
    try {
      await api.call('GET', '/tiles/boundaries.json');
      const status = await ended;
      expect(status.state).toBe('capped');
      expect(status.reason).toMatch(/cap of 250000 bytes \(TILE_SEED_MAX_BYTES\)/);
      expect(status.tiles).toBeGreaterThan(0);
      expect(status.bytes).toBeGreaterThan(0);
      expect(status.bytes).toBeLessThanOrEqual(cap);
      await exited(workers[0]!);

      const shown = await seedingOnHealth(api);
      expect(shown).toMatchObject({ state: 'capped', reason: status.reason, tiles: status.tiles, bytes: status.bytes });

      // Zooms 0 to 8 over NL and BE (seeded first, zoom by zoom), and Delft deeper: those that fit come from the
      // store, the rest are cut; each is the tile an API that never seeds answers.
      const ourSources: string[] = [];
      const at = [
        ...[0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((z) => tilesOver(NL_BE, z).map(({ x, y }) => [z, x, y] as const)),
        DELFT_11,
      ];
      for (const [z, x, y] of at) {
        // One after the other: each answer's source is the one it published.
        const ours = await tile(api, [z, x, y]);
        ourSources.push(...sources.splice(0));
        const theirs = await tile(onDemand, [z, x, y]);
        expect(ours.status, `${z}/${x}/${y}`).toBe(theirs.status);
        expect(ours.bytes.equals(theirs.bytes), `${z}/${x}/${y}`).toBe(true);
      }
      expect((await tile(api, DELFT_11)).status).toBe(200);
      expect(ourSources).toContain('store');
      expect(ourSources).toContain('cut');
      // Past the cap nothing is known empty: a tile the store does not hold is cut, never answered 204 unseen.
      expect(ourSources).not.toContain('empty');
    } finally {
      unsubscribe(TILE_SOURCE_CHANNEL.name, listen);
      seeds.stop();
      await api.close();
    }
  });
});
