/**
 * An open-loop load: requests sent at a fixed rate, evenly spaced, whether or not earlier ones have been answered,
 * as independent clients arrive. Each latency is counted from the moment the request was due, not from when it
 * could be sent, so a stalled server (or a stalled generator) shows in the tail instead of silently lowering the
 * rate (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it is a closed loop with a per-second budget per connection (every connection
 * sends its share back to back at the top of each second, then waits), so it measures bursts of N concurrent
 * requests; and its coordinated-omission correction assumes one request per millisecond (`ceil(1 / rate)` with a
 * per-connection rate >= 1), which records a response of L ms as L values from 1 to L and so weights the
 * percentiles by latency (a 10 ms service with 1 % of 300 ms answers reports p90 83 ms instead of 18 ms).
 *
 * `connections`: the clients' connections, opened before the first request is due and kept, as a population of map
 * clients keeps theirs (a browser holds at most 6 per host, opened once). A request due while every one is busy waits
 * in the generator for one, and that wait counts (its latency is from the moment it was due). Without it, a request
 * due while every connection is busy opens a new one: after any hiccup of the server (or of the machine) hundreds of
 * connections at once, which overflow the server's accept queue (511 by default): the kernel drops their SYNs and the
 * generator's retries come 1 s and 3 s later. That measured TCP's retry timer, not the server (issue 38's tile p99 of
 * ~1 s in two seeded runs of three: bench/probes/tileStall.ts).
 */
import http from 'node:http';

export interface OpenLoopRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface OpenLoopOptions {
  url: string;
  requests: readonly OpenLoopRequest[];
  headers: Record<string, string>;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** A request unanswered this long counts as failed (status 0). */
  timeoutMs?: number;
  /** Keep every 2xx answer's due time and latency (`samples`), to see when in the run the slow ones fell. */
  keepSamples?: boolean;
  /** With `keepSamples`: also keep this answer header's value (the API's X-Search-Trace) and the path asked. */
  keepHeader?: string;
  /**
   * Connections opened (with a `GET /` each) before the run and kept; requests wait for a free one. Unset: a new
   * connection whenever none is free (up to 1,024), as independent clients arriving with no connection of their own.
   */
  connections?: number;
}

/**
 * One 2xx answer: when it was due (ms after the start), how long after that it was answered, which request of the
 * list it was, how late the generator itself sent it (its own event loop's lag, counted in `latencyMs`), and how long
 * it waited for a new connection to be established.
 */
export interface OpenLoopSample {
  dueMs: number;
  latencyMs: number;
  index: number;
  sendLagMs: number;
  /** The TCP connect of a new connection it waited for (0: sent on a kept-alive one). */
  connectMs: number;
  /** With `keepHeader`: the path asked and that header's value. */
  path?: string;
  header?: string;
}

export interface OpenLoopResult {
  sent: number;
  /** Answers per status; 0: no answer (socket error or timeout). */
  statuses: Record<string, number>;
  /** 2xx answers. */
  ok: number;
  /** 2xx answers per second over the run. */
  ok_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Milliseconds of each failed request's end after the start (for first-fail and disrupted-time figures). */
  failedAt: number[];
  /** With `keepSamples`: every 2xx answer, in the order answered. */
  samples: OpenLoopSample[];
  /** The start (due time 0), in ms since the epoch (performance.timeOrigin + now). */
  startedAt: number;
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** `count` connections of `agent`, each opened by a `GET /` in flight at once, then idle in its pool. */
async function openConnections(agent: http.Agent, target: URL, headers: Record<string, string>, count: number) {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = http.request({ host: target.hostname, port: target.port, path: '/', agent, headers }, (res) => {
            res.resume();
            res.once('end', resolve);
          });
          req.once('error', reject);
          req.end();
        }),
    ),
  );
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const timeoutMs = options.timeoutMs ?? 15_000;
  // Unset `connections`: enough sockets that the client never queues (a new connection for every request due while
  // the others are busy). Set: that many, all opened first, and requests beyond them queue in the agent.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections ?? 1024 });
  if (options.connections) await openConnections(agent, target, options.headers, options.connections);
  const intervalMs = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const failedAt: number[] = [];
  const samples: OpenLoopSample[] = [];
  let ok = 0;
  let sent = 0;
  const started = performance.now();
  const pending = new Set<Promise<void>>();

  const send = (index: number) => {
    const due = started + index * intervalMs;
    const spec = options.requests[index % options.requests.length] as OpenLoopRequest;
    const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
    const sendLagMs = performance.now() - due;
    let connectMs = 0;
    const done = new Promise<void>((resolve) => {
      let header: string | undefined;
      const finish = (status: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 200 && status < 300) {
          ok++;
          const latencyMs = performance.now() - due;
          latencies.push(latencyMs);
          const sample = { dueMs: due - started, latencyMs, index, sendLagMs, connectMs };
          if (options.keepHeader) samples.push({ ...sample, path: spec.path, header });
          else if (options.keepSamples) samples.push(sample);
        } else failedAt.push(performance.now() - started);
        resolve();
      };
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: spec.method,
          path: spec.path,
          agent,
          headers: {
            ...options.headers,
            ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
          },
          timeout: timeoutMs,
        },
        (res) => {
          if (options.keepHeader) header = res.headers[options.keepHeader.toLowerCase()] as string | undefined;
          res.resume();
          res.once('end', () => finish(res.statusCode ?? 0));
          res.once('error', () => finish(0));
        },
      );
      if (options.keepSamples) {
        req.once('socket', (socket) => {
          if (!socket.connecting) return;
          const connecting = performance.now();
          socket.once('connect', () => (connectMs = performance.now() - connecting));
        });
      }
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', () => finish(0));
      req.end(body);
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  // Sends every request that is due, then sleeps until the next one; a late timer sends the ones it missed at once.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * intervalMs <= now) send(sent++);
      if (sent >= total) return resolve();
      setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
    };
    tick();
  });
  const sendingMs = performance.now() - started;
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    sent,
    statuses,
    ok,
    ok_per_s: Math.round((ok / Math.max(sendingMs, intervalMs)) * 1000 * 10) / 10,
    p50_ms: Math.round(quantile(latencies, 0.5)),
    p99_ms: Math.round(quantile(latencies, 0.99)),
    max_ms: Math.round(latencies.at(-1) ?? 0),
    failedAt,
    samples,
    startedAt: performance.timeOrigin + started,
  };
}
