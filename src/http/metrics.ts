/**
 * GET /metrics in the Prometheus text format (prom-client), one registry per app. Requests by route and status,
 * latency by route, requests in flight, shed and rate-limited requests, the breaker's state, Elasticsearch round
 * trips and `_msearch` batch sizes. The route label is the router's pattern (`/addresses/:id`), never the path,
 * so the number of series stays bounded.
 *
 * Open without an API key only to loopback clients that did not come through a proxy; from anywhere else it needs
 * METRICS_KEY (`X-Metrics-Key` or `Authorization: Bearer`): 401 without it or with a wrong one, 403 when no
 * METRICS_KEY is configured (nothing a client sends can help).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GuardStats } from '../../core/elasticsearch/circuitBreaker.js';
import { isDirectLoopback } from './clientAddress.js';
import { ApiError } from './errors.js';

export const METRICS_PATH = '/metrics';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'geocoder_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'geocoder_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the end of the handler; a streamed body may take longer)',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly inFlight = new Gauge({
    name: 'geocoder_http_requests_in_flight',
    help: 'HTTP requests being handled',
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'geocoder_rate_limited_total',
    help: 'Requests refused with 429 rate_limited',
    registers: [this.registry],
  });
  private readonly brokenResponses = new Counter({
    name: 'geocoder_http_responses_broken_total',
    help: 'Answers that failed after the status line went out (the connection was closed mid-body), by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'geocoder_elasticsearch_batch_size',
    help: 'Searches per round trip sent by the batcher (1: a plain _search)',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [this.registry],
  });

  /** @param guard the Elasticsearch guard's counters, read at scrape time. */
  constructor(guard: () => GuardStats | undefined) {
    const registers = [this.registry];
    // Counters kept by the guard itself: read when scraped (prom-client calls collect() first).
    const fromGuard = (read: (stats: GuardStats) => number) =>
      function (this: Counter | Gauge) {
        const stats = guard();
        this.reset();
        if (stats) this.inc(read(stats));
      };
    const series: [typeof Counter | typeof Gauge, string, string, (s: GuardStats) => number][] = [
      [
        Counter,
        'geocoder_shed_total',
        'Requests refused with 503 overloaded (MAX_IN_FLIGHT_SEARCHES and MAX_QUEUED_REQUESTS reached)',
        (s) => s.shed,
      ],
      [
        Counter,
        'geocoder_elasticsearch_round_trips_total',
        'Requests sent to Elasticsearch (an _msearch counts once; breaker probes not included)',
        (s) => s.round_trips,
      ],
      [
        Counter,
        'geocoder_breaker_rejected_total',
        'Elasticsearch requests refused at once because the circuit breaker was open',
        (s) => s.rejected_open,
      ],
      [
        Gauge,
        'geocoder_breaker_open',
        'Circuit breaker around Elasticsearch: 1 open (requests fail at once), 0 closed',
        (s) => (s.breaker === 'open' ? 1 : 0),
      ],
      [Gauge, 'geocoder_elasticsearch_in_flight', 'Requests to Elasticsearch in flight', (s) => s.in_flight],
      [Gauge, 'geocoder_elasticsearch_queued', 'Requests to Elasticsearch waiting for a slot', (s) => s.queued],
    ];
    for (const [Metric, name, help, read] of series) {
      new Metric({ name, help, registers, collect: fromGuard(read) });
    }
  }

  /** For the batcher: one observation per round trip. */
  readonly observeBatch = (searches: number): void => this.batchSize.observe(searches);

  readonly countRateLimited = (): void => this.rateLimited.inc();

  /** A 200 already logged and counted that the client never received whole: the request counter cannot say so. */
  readonly countBrokenResponse = (ctx: Context): void => this.brokenResponses.inc({ route: routeLabel(ctx) });

  /** A request arrives (src/http/requestFrame.ts: outermost but for the anonymous gate). */
  readonly enter = (): void => this.inFlight.inc();

  /**
   * A request is answered, error envelopes included (its final status): counted by route, method and status, its
   * latency from `started` (process.hrtime.bigint() at its arrival) observed by route.
   */
  readonly leave = (ctx: Context, started: bigint): void => {
    this.inFlight.dec();
    const route = routeLabel(ctx);
    this.latency.observe({ route }, Number(process.hrtime.bigint() - started) / 1e9);
    this.requests.inc({ route, method: ctx.method, status: String(ctx.status) });
  };

  /** GET /metrics, with its own access rule (it is among the paths the API-key check leaves open). */
  endpoint(metricsKeyDigest: string | undefined) {
    const expected = metricsKeyDigest === undefined ? undefined : Buffer.from(metricsKeyDigest, 'hex');
    return async (ctx: Context) => {
      if (!isDirectLoopback(ctx)) {
        if (!expected) throw new ApiError(403, 'forbidden', 'Metrics are readable from loopback only');
        const presented = ctx.get('x-metrics-key') || /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'))?.[1];
        const digest = createHash('sha256')
          .update(presented ?? '')
          .digest();
        if (!presented || !timingSafeEqual(digest, expected)) {
          throw new ApiError(401, 'unauthorized', 'A valid X-Metrics-Key header is required');
        }
      }
      ctx.type = this.registry.contentType;
      ctx.body = await this.registry.metrics();
    };
  }
}

/** The router's pattern (`/addresses/:id`), so series stay bounded; `unmatched` for unknown paths and refusals. */
function routeLabel(ctx: Context): string {
  return (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
}
