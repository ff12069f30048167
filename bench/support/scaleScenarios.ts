/**
 * What `npm run bench:scale` asks at each size, every entry point a deployment serves: exact forward, free text,
 * the type-ahead's keystrokes, reverse, batch, a boundary tile and a GeoJSON level, each with the fixed rate of its
 * latency run (batch: 100 addresses a request at a tenth of the rate, the same addresses a second as the others'
 * requests), and the quality probes that must read the same at every size.
 */
import type { AddressDoc, AreaDoc } from '../../core/elasticsearch/documents.js';
import { freeTextPaths, keystrokePaths, reversePaths, streetBodies } from './benchQueries.js';
import type { Scenario } from './loadDriver.js';
import { seededRandom } from './random.js';
import { shuffled, tilePaths } from './tileScenarios.js';

/** Addresses per batch request. */
export const SCALE_BATCH_ITEMS = 100;

export interface ScaleScenario extends Scenario {
  /** The fixed rate of its latency run, requests a second. */
  fixedRate: number;
}

export interface ScaleDraw {
  apiUrl: string;
  apiKey: string;
  addresses: AddressDoc[];
  cities: AreaDoc[];
  rate: number;
  seed: number;
}

/** The tiles a map asks over the Netherlands and Belgium from the country view to a town (zooms 6-12), shuffled. */
function tileRequests(seed: number): string[] {
  return shuffled(tilePaths([6, 7, 8, 9, 10, 11, 12]), seededRandom(seed + 11));
}

export function scaleScenarios(draw: ScaleDraw): ScaleScenario[] {
  const { apiUrl, rate, seed, addresses } = draw;
  const headers = { 'x-api-key': draw.apiKey, 'content-type': 'application/json' };
  const compressed = { ...headers, 'accept-encoding': 'br, gzip' };
  const get = (paths: string[]) => paths.map((path) => ({ method: 'GET' as const, path }));
  const exact = streetBodies(addresses, false, seededRandom(seed));
  const batches = Array.from({ length: Math.max(1, Math.floor(exact.length / SCALE_BATCH_ITEMS)) }, (_, i) =>
    JSON.stringify({ items: exact.slice(i * SCALE_BATCH_ITEMS, (i + 1) * SCALE_BATCH_ITEMS) }),
  );
  const api = { target: 'api' as const, url: apiUrl, headers };
  return [
    {
      ...api,
      name: 'forward exact',
      fixedRate: rate,
      requests: exact.map((b) => ({ method: 'POST' as const, path: '/geocode/forward', body: JSON.stringify(b) })),
    },
    { ...api, name: 'search free text', fixedRate: rate, requests: get(freeTextPaths(addresses)) },
    { ...api, name: 'autocomplete keystrokes', fixedRate: rate, requests: get(keystrokePaths(addresses)) },
    { ...api, name: 'reverse', fixedRate: rate, requests: get(reversePaths(addresses, seed)) },
    {
      ...api,
      name: `batch ${SCALE_BATCH_ITEMS} exact`,
      fixedRate: Math.max(1, Math.round(rate / 10)),
      connections: 2,
      requests: batches.map((body) => ({ method: 'POST' as const, path: '/geocode/batch', body })),
    },
    {
      ...api,
      headers: compressed,
      name: 'tile z6-12',
      fixedRate: rate,
      wireBytes: true,
      requests: get(tileRequests(seed)),
    },
    {
      ...api,
      headers: compressed,
      name: 'cities/{id}/geojson',
      fixedRate: rate,
      wireBytes: true,
      requests: get(draw.cities.map((c) => `/cities/${c.id}/geojson`)),
    },
  ];
}

/** Of the first `n`, how many answers name what was asked first (`expected(i, body)`). */
export async function firstHits(
  apiUrl: string,
  apiKey: string,
  paths: string[],
  expected: (i: number, first: Record<string, unknown> | undefined) => boolean,
  n = 100,
): Promise<number> {
  let hits = 0;
  for (let i = 0; i < Math.min(n, paths.length); i++) {
    const res = await fetch(`${apiUrl}${paths[i]}`, { headers: { 'x-api-key': apiKey } });
    const body: unknown = await res.json();
    const first = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : undefined;
    if (expected(i, first)) hits++;
  }
  return hits;
}

/** The free-text probe: "street number, postcode city" answers with the drawn address first. */
export function addressProbe(addresses: AddressDoc[]) {
  return {
    paths: freeTextPaths(addresses),
    expected: (i: number, first?: Record<string, unknown>) => first?.id === addresses[i]?.id,
  };
}

/** The place probe: a drawn address's city name alone answers with that city first (a replica's own, "Groningen~3"). */
export function cityProbe(addresses: AddressDoc[]) {
  return {
    paths: addresses.map((a) => `/search?q=${encodeURIComponent(a.city)}`),
    expected: (i: number, first?: Record<string, unknown>) =>
      first?.type === 'city' && first.name === addresses[i]?.city,
  };
}
