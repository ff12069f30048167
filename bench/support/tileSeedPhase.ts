/**
 * The boundary tiles cut ahead (src/features/tiles/seed), first thing in a bench that measures tiles: the API's
 * seeding is started (a TileJSON request: the API notices the areas' generation), forward geocoding from 6 clients is
 * measured while the worker cuts, the bench waits until /health says the seeding is complete (so the uncached-tile
 * scenarios ask tiles the store holds, and no later scenario shares the cores with the worker), and forward
 * geocoding is measured again right after, the same way, for the ratio. The API's RSS is read before and after.
 */
import { readFileSync } from 'node:fs';
import { drive, type LoadSettings, type Row, type Scenario } from './loadDriver.js';

interface SeedingStatus {
  state: string;
  tiles?: number;
  bytes?: number;
  seconds?: number;
  stats?: Record<string, unknown>;
}

const rssMb = (pid: number | undefined) => {
  if (pid === undefined) return undefined;
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
};

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
  const status = async (): Promise<SeedingStatus> =>
    ((await (await fetch(`${apiUrl}/health`, { headers })).json()) as { tile_seeding?: SeedingStatus })
      .tile_seeding ?? { state: 'off' };
  const rssBefore = rssMb(apiPid);
  await fetch(`${apiUrl}/tiles/boundaries.json`, { headers });
  const alone = { ...forward, connections: 6 };
  log('tiles: forward geocoding while the tiles are seeded');
  const during = await drive(settings, { ...alone, name: 'tiles seeding: forward exact, 6 clients, during seeding' });
  const seedingThroughout = (await status()).state === 'seeding';
  const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
  let seeding = await status();
  while (seeding.state === 'seeding' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    seeding = await status();
  }
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
