/**
 * Drives one scenario with autocannon: a warm-up (not measured), then the measured run at a fixed concurrency,
 * as fast as it goes or at a fixed rate. Requests rotate through the scenario's list. Shared by the benches.
 */
import autocannon from 'autocannon';

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

export function load(settings: LoadSettings, scenario: Scenario, seconds: number, rate?: number) {
  let next = 0;
  return autocannon({
    url: scenario.url,
    connections: scenario.connections ?? settings.connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
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

/** Warm-up, then `begin` (a CPU meter's start), then the measured run. */
export async function drive(
  settings: LoadSettings,
  scenario: Scenario,
  overallRate?: number,
  begin?: () => void,
): Promise<Row> {
  if (settings.warmup > 0) await load(settings, scenario, settings.warmup, overallRate);
  begin?.();
  const result = await load(settings, scenario, settings.duration, overallRate);
  return {
    scenario: scenario.name,
    target: scenario.target,
    requests: result.requests.total,
    requests_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(overallRate ? { rate_limit: overallRate } : {}),
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
