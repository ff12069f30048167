import { Client, ClusterConnectionPool, errors, SniffingTransport } from '@elastic/elasticsearch';
import { splitElasticsearchUrls } from '../config/rules.js';
import { ElasticsearchGuard } from './circuitBreaker.js';

/** Circuit breaker and load shedding defaults (core/elasticsearch/circuitBreaker.ts; BREAKER_*, MAX_* variables). */
/**
 * breakerStallMs 0: stall detection off for the indexer, the tests' and the benchmarks' clients, whose bulk and
 * admin calls may legitimately take seconds with nothing else in flight; the API has it on (BREAKER_STALL_MS,
 * 1000 by default).
 */
export const DEFAULT_GUARD = {
  breakerFailures: 5,
  breakerProbeMs: 1000,
  breakerStallMs: 0,
  maxInFlight: 256,
  maxQueued: 1024,
  /**
   * With several nodes, a read's first attempt may take this long before it is cut, its node marked dead for new
   * requests (and pinged back in) and the read retried on another node with the rest of the request timeout;
   * 0: one attempt may use the whole request timeout and a timeout is not retried. Off here (the indexer's bulk
   * and admin calls may take seconds); the API derives it from its request timeout (src/config/service.ts).
   */
  attemptTimeoutMs: 0,
};

export interface ElasticsearchClientOptions extends Partial<typeof DEFAULT_GUARD> {
  /** One node's URL, several comma-separated (ELASTICSEARCH_URL), or a list. */
  url: string | readonly string[];
  /**
   * Per-request timeout, bounding the whole request including its retry; the API turns a timeout into 503
   * rather than holding the client connection.
   */
  requestTimeoutMs: number;
  /** Further attempts on another node after a connection failure or a 502/503/504 (default 1). */
  maxRetries?: number;
}

const guards = new WeakMap<Client, ElasticsearchGuard>();

/** The guard installed in a client made here (for /metrics and the health answer). */
export function guardOf(client: Client): ElasticsearchGuard | undefined {
  return guards.get(client);
}

/**
 * Dead nodes are left out and pinged back in (resurrection); the library's 60 s base doubling to 32 min would keep
 * a restarted node idle for many minutes after a burst of failures, so: 5 s doubling to at most 40 s.
 */
class ResurrectingPool extends ClusterConnectionPool {
  constructor(options: ConstructorParameters<typeof ClusterConnectionPool>[0]) {
    super({ ...options, resurrectStrategy: 'ping', pingTimeout: 1000 });
    this.resurrectTimeout = 5_000;
    this.resurrectTimeoutCutoff = 3;
  }
}

/**
 * One keep-alive client per process: connection reuse matters more than anything else on the hot path.
 *
 * Several nodes: requests go round-robin to the living ones; a node that fails (connection refused or reset,
 * 502/503/504, a timeout) is left out and pinged back in later. A refused or reset attempt is retried on another
 * node; a timed-out one only with `attemptTimeoutMs`: a frozen node answers nothing, so the first attempt is cut
 * after that long and the read goes to the next node with whatever is left of the deadline (a read that is merely
 * slow on a living cluster is then slow, not failed). One deadline (`requestTimeoutMs`) covers every attempt. No
 * sniffing: the configured list is the truth (behind a load balancer, in containers or in the cloud the nodes'
 * publish addresses are often unreachable from the client, and a sniff would replace reachable URLs with those).
 */
export function createElasticsearchClient(options: ElasticsearchClientOptions): Client {
  // The transport's OpenTelemetry middleware runs on every request even with no tracer installed; this
  // service does not trace, so it is off unless the operator turns it on (the client reads only this variable).
  process.env.OTEL_ELASTICSEARCH_ENABLED ??= 'false';
  const settings = { ...DEFAULT_GUARD, ...options };
  const timeoutMs = options.requestTimeoutMs;
  const nodes = typeof options.url === 'string' ? splitElasticsearchUrls(options.url) : [...options.url];
  // Only shorter than the deadline, and with another node to go to, does a first-attempt bound help.
  const attemptMs =
    nodes.length > 1 && settings.attemptTimeoutMs > 0 && settings.attemptTimeoutMs < timeoutMs
      ? settings.attemptTimeoutMs
      : 0;
  let transport: GuardedTransport | undefined;
  const guard = new ElasticsearchGuard({
    failureThreshold: settings.breakerFailures,
    probeIntervalMs: settings.breakerProbeMs,
    stallMs: settings.breakerStallMs,
    maxInFlight: settings.maxInFlight,
    maxQueued: settings.maxQueued,
    probe: () => transport?.unguarded({ method: 'GET', path: '/' }) ?? Promise.resolve(),
  });

  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument,
     @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-this-alias --
     the transport's request() is overloaded (with or without meta, streamed); the guard passes its arguments on
     unchanged. `transport` is this instance, for the breaker's probe. */
  class GuardedTransport extends SniffingTransport {
    constructor(...[transportOptions, ...rest]: ConstructorParameters<typeof SniffingTransport>) {
      // Timeouts are retried by bounded() (with the rest of the deadline), never by the transport.
      super({ ...transportOptions, retryOnTimeout: false }, ...rest);
      transport = this;
    }

    override request(...args: any[]): any {
      return guard.run(() => this.bounded(args[0], args[1]));
    }

    unguarded(params: Parameters<SniffingTransport['request']>[0]) {
      return super.request(params);
    }

    /**
     * The per-attempt timeout alone would let a connection failure plus its retry take up to twice the timeout:
     * one deadline (an abort signal) covers every attempt, and its expiry is reported as the timeout it is.
     */
    private async bounded(params: any, requestOptions: any = {}): Promise<any> {
      if (requestOptions.signal) return super.request(params, requestOptions);
      const bound = typeof requestOptions.requestTimeout === 'number' ? requestOptions.requestTimeout : timeoutMs;
      // A timer cleared with the answer: AbortSignal.timeout() cannot be cancelled, so every request left a timer
      // that fired `bound` ms later and built a DOMException (thousands pending under load, 0.6 % of the CPU).
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), bound).unref();
      try {
        return await this.attempts(params, { ...requestOptions, signal: deadline.signal }, bound);
      } catch (error) {
        if (error instanceof errors.RequestAbortedError && deadline.signal.aborted) {
          throw new errors.TimeoutError(`Request timed out after ${bound} ms (all attempts)`, error.meta);
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    }

    /**
     * The first attempt bounded by `attemptMs` (when set and shorter than the bound); on its timeout the
     * transport has marked that node dead, so the second goes to another node and may use the rest of the bound.
     */
    private async attempts(params: any, requestOptions: any, bound: number): Promise<any> {
      if (attemptMs === 0 || attemptMs >= bound)
        return super.request(params, { ...requestOptions, requestTimeout: bound });
      const started = performance.now();
      try {
        return await super.request(params, { ...requestOptions, requestTimeout: attemptMs });
      } catch (error) {
        if (!(error instanceof errors.TimeoutError)) throw error;
        const left = Math.floor(bound - (performance.now() - started));
        if (left <= 0) throw error;
        return super.request(params, { ...requestOptions, requestTimeout: left });
      }
    }
  }
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument,
     @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-this-alias */

  const client = new Client({
    nodes,
    // Per attempt; attempts() sets each one's, bounded() holds the whole request to its deadline.
    requestTimeout: timeoutMs,
    maxRetries: options.maxRetries ?? 1,
    compression: false,
    sniffOnStart: false,
    sniffOnConnectionFault: false,
    ConnectionPool: ResurrectingPool,
    Transport: GuardedTransport,
  });
  guards.set(client, guard);
  return client;
}
