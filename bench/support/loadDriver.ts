/**
 * Drives one scenario: a warm-up (not measured), then the measured run, either as fast as it goes (autocannon,
 * closed loop at a fixed concurrency) or at a fixed rate (an open loop: evenly spaced requests, latency from the
 * moment each was due; see openLoop.ts for why not autocannon's `overallRate`). Requests rotate through the
 * scenario's list. Shared by the benches.
 */
import autocannon from 'autocannon';
import { openLoop } from './openLoop.js';

export interface Scenario {
  name: string;
  target: 'api' | 'elasticsearch' | 'bare hop';
  url: string;
  requests: { method: 'GET' | 'POST'; path: string; body?: string }[];
  headers: Record<string, string>;
  /** A fixed request rate (a latency target at a given load) instead of as fast as possible. */
  rate?: number;
  /** Fewer connections than the run's (a batch of 1,000 addresses is itself a load). */
  connections?: number;
  /**
   * At a fixed rate: this many connections, opened before the run (and before its warm-up) and kept, as its clients
   * keep theirs (a search box its one connection); unset: a new connection for every request due while the others
   * are busy (see openLoop's `connections`).
   */
  keptConnections?: number;
  /** Report the mean response size on the wire (map scenarios: compressed bytes matter as much as req/s). */
  wireBytes?: boolean;
}

export interface Row {
  scenario: string;
  target: string;
  /** Requests completed in the measured run. */
  requests: number;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  rate_limit?: number;
  /** Mean bytes of a response body on the wire (compressed where the scenario asks for it). */
  bytes_per_response?: number;
}

export interface LoadSettings {
  connections: number;
  /** Seconds of the measured run. */
  duration: number;
  /** Seconds of load before it, not measured. */
  warmup: number;
}

/** As fast as it goes: a closed loop at the scenario's (or the run's) concurrency. */
export function load(settings: LoadSettings, scenario: Scenario, seconds: number) {
  let next = 0;
  return autocannon({
    url: scenario.url,
    connections: scenario.connections ?? settings.connections,
    duration: seconds,
    headers: scenario.headers,
    requests: [
      {
        setupRequest: (req: any) => {
          const r = scenario.requests[next++ % scenario.requests.length]!;
          return { ...req, method: r.method, path: r.path, body: r.body };
        },
      },
    ],
  });
}

/**
 * The scenario at a fixed rate: evenly spaced requests whether or not earlier ones were answered (`connections`: kept
 * connections opened first, see openLoop).
 */
export function atRate(scenario: Scenario, rate: number, seconds: number, connections?: number) {
  return openLoop({
    url: scenario.url,
    requests: scenario.requests,
    headers: scenario.headers,
    rate,
    seconds,
    ...(connections ? { connections } : {}),
  });
}

/** At a fixed rate, the latency a client sees (see atRate), over the scenario's kept connections if it has them. */
async function driveAtRate(settings: LoadSettings, scenario: Scenario, rate: number, begin?: () => void) {
  const kept = scenario.keptConnections;
  if (settings.warmup > 0) await atRate(scenario, rate, settings.warmup, kept);
  begin?.();
  return rateRow(scenario.name, scenario.target, await atRate(scenario, rate, settings.duration, kept), rate);
}

/** A fixed-rate run as a row of the table. */
export function rateRow(
  name: string,
  target: Row['target'],
  result: Awaited<ReturnType<typeof atRate>>,
  rate: number,
): Row {
  const failed = result.statuses['0'] ?? 0;
  return {
    scenario: name,
    target,
    requests: result.sent,
    requests_per_s: Math.round(result.ok_per_s),
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    errors: failed,
    non2xx: result.sent - result.ok - failed,
    rate_limit: rate,
  };
}

/** Warm-up, then `begin` (a CPU meter's start), then the measured run. */
export async function drive(
  settings: LoadSettings,
  scenario: Scenario,
  overallRate?: number,
  begin?: () => void,
): Promise<Row> {
  if (overallRate) return driveAtRate(settings, scenario, overallRate, begin);
  if (settings.warmup > 0) await load(settings, scenario, settings.warmup);
  begin?.();
  const result = await load(settings, scenario, settings.duration);
  return {
    scenario: scenario.name,
    target: scenario.target,
    requests: result.requests.total,
    requests_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(scenario.wireBytes && result.requests.total > 0
      ? { bytes_per_response: Math.round(result.throughput.total / result.requests.total) }
      : {}),
  };
}

/** A plain-text table: a header, a rule, the rows, columns padded to their widest cell. */
export function formatTable(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}
