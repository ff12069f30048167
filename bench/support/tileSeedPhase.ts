/**
 * The boundary tiles cut ahead (src/features/tiles/seed), first thing in a bench that measures tiles: the API's
 * seeding is started (a TileJSON request: the API notices the areas' generation), forward geocoding from 6 clients is
 * measured while the worker cuts, the bench waits until /health says the seeding is complete (so the uncached-tile
 * scenarios ask tiles the store holds, and no later scenario shares the cores with the worker), and forward
 * geocoding is measured again right after, the same way, for the ratio. The API's RSS is read before and after.
 */
import { processMemory } from './processMemory.js';
import { drive, type LoadSettings, type Row, type Scenario } from './loadDriver.js';

export interface SeedingStatus {
  state: string;
  tiles?: number;
  bytes?: number;
  seconds?: number;
  stats?: Record<string, unknown>;
}

const rssMb = (pid: number | undefined) => processMemory(pid)?.rssMb;

/** The API's tile seeding as /health tells it ('off' when it says nothing of it). */
async function seedingStatus(apiUrl: string, headers: Record<string, string>): Promise<SeedingStatus> {
  const health = (await (await fetch(`${apiUrl}/health`, { headers })).json()) as { tile_seeding?: SeedingStatus };
  return health.tile_seeding ?? { state: 'off' };
}

/** Polls /health every second while the seeding is under way, at most `timeoutMs`; returns how it stands then. */
export async function awaitSeeding(
  apiUrl: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SeedingStatus> {
  const deadline = Date.now() + timeoutMs;
  let seeding = await seedingStatus(apiUrl, headers);
  while (seeding.state === 'seeding' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    seeding = await seedingStatus(apiUrl, headers);
  }
  return seeding;
}

export async function seedTilesFirst(options: {
  settings: LoadSettings;
  apiUrl: string;
  headers: Record<string, string>;
  apiPid: number | undefined;
  forward: Scenario;
  log: (message: string) => void;
  /** How long to wait for the seeding at most. */
  timeoutMs?: number;
}) {
  const { settings, apiUrl, headers, apiPid, forward, log } = options;
  const rssBefore = rssMb(apiPid);
  await fetch(`${apiUrl}/tiles/boundaries.json`, { headers });
  const alone = { ...forward, connections: 6 };
  log('tiles: forward geocoding while the tiles are seeded');
  const during = await drive(settings, { ...alone, name: 'tiles seeding: forward exact, 6 clients, during seeding' });
  const seedingThroughout = (await seedingStatus(apiUrl, headers)).state === 'seeding';
  const seeding = await awaitSeeding(apiUrl, headers, options.timeoutMs ?? 15 * 60_000);
  log(`tiles: seeding ${seeding.state}: ${JSON.stringify(seeding)}`);
  if (seeding.state !== 'complete') throw new Error(`tile seeding did not complete: ${JSON.stringify(seeding)}`);
  const after = await drive(settings, { ...alone, name: 'tiles seeding: forward exact, 6 clients, after seeding' });
  const rows: Row[] = [during, after];
  return {
    rows,
    seeding: {
      ...seeding,
      api_rss_mb_before: rssBefore,
      api_rss_mb_after: rssMb(apiPid),
      forward_during_over_after: Math.round((during.requests_per_s / after.requests_per_s) * 100) / 100,
      // false: the seeding ended before the run did (the ratio then understates its cost).
      seeding_throughout_the_run: seedingThroughout,
    },
  };
}
