/**
 * Guards every Elasticsearch request (installed in the client's transport by core/elasticsearch/client.ts), so
 * the batcher's searches and `_msearch`es, the paging's point-in-time pages and every other call pass it:
 *
 * - **Circuit breaker.** After `failureThreshold` consecutive timeouts or connection failures it opens: every
 *   call fails at once with BackendUnavailableError instead of holding a client for the request timeout. While
 *   open, a background probe (`probe`, every `probeIntervalMs`) asks Elasticsearch; the first answer closes it.
 *   Any answer from Elasticsearch, even an error status, counts as "reachable" and resets the count.
 * - **Stall detection.** It also opens when Elasticsearch has answered nothing for `stallMs` while a call has
 *   waited at least that long (a frozen node answers nothing, and N timeouts would take N request timeouts at
 *   low concurrency), confirmed by a probe: after half the window of silence a cheap probe is sent, and the
 *   breaker opens only if that probe too is still unanswered at the end of the window (and has had half a window).
 *   A merely slow read therefore never opens it (Elasticsearch answers the probe); a frozen one does, within about
 *   `stallMs`: the calls waiting fail at once, so do new ones.
 * - **Load shedding.** At most `maxInFlight` requests to Elasticsearch at once (an `_msearch` counts once) and
 *   `maxQueued` waiting for a slot; beyond that a call fails at once with OverloadedError.
 */
import { errors as esErrors } from '@elastic/elasticsearch';
import { BackendUnavailableError, OverloadedError } from '../domain/errors.js';

interface InFlightCall {
  at: number;
  /** Gives up waiting for the answer: the caller gets this error now (the request itself ends at its timeout). */
  abandon: (error: Error) => void;
}

export type BreakerState = 'closed' | 'open';

export interface GuardOptions {
  failureThreshold: number;
  probeIntervalMs: number;
  /** Resolves when Elasticsearch answers (an error status rejects, and is an answer too); bypasses the guard. */
  probe: () => Promise<unknown>;
  maxInFlight: number;
  maxQueued: number;
  /** Open after this long without any answer while a call waits; 0: only consecutive failures open it. */
  stallMs?: number;
}

export interface GuardStats {
  breaker: BreakerState;
  consecutive_failures: number;
  /** Requests sent to Elasticsearch since start (probes not included). */
  round_trips: number;
  in_flight: number;
  queued: number;
  /** Calls refused at once because the breaker was open / because the bound was reached. */
  rejected_open: number;
  shed: number;
}

/** Which failures mean "Elasticsearch did not answer" (an error status is an answer). */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof esErrors.ConnectionError ||
    error instanceof esErrors.TimeoutError ||
    error instanceof esErrors.NoLivingConnectionsError
  );
}

export class ElasticsearchGuard {
  private state: BreakerState = 'closed';
  private consecutive = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private roundTrips = 0;
  private rejectedOpen = 0;
  private shed = 0;
  private readonly listeners = new Set<(state: BreakerState) => void>();
  /** When each call in flight was sent (performance.now()), in order: the first is the oldest. */
  private readonly sentAt = new Set<InFlightCall>();
  private lastAnswerAt = performance.now();
  private watchdog: NodeJS.Timeout | undefined;
  /** The probe confirming a suspected stall: when it was sent, and whether it failed unanswered. */
  private stallProbe: { sentAt: number; unreachable: boolean } | undefined;

  constructor(private readonly options: GuardOptions) {}

  get breakerState(): BreakerState {
    return this.state;
  }

  stats(): GuardStats {
    return {
      breaker: this.state,
      consecutive_failures: this.consecutive,
      round_trips: this.roundTrips,
      in_flight: this.inFlight,
      queued: this.waiting.length,
      rejected_open: this.rejectedOpen,
      shed: this.shed,
    };
  }

  /** Called on every change of the breaker's state (for the log). */
  onStateChange(listener: (state: BreakerState) => void): void {
    this.listeners.add(listener);
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    this.refuseIfOpen();
    await this.acquire();
    // The breaker may have opened while this call waited for a slot.
    try {
      this.refuseIfOpen();
    } catch (error) {
      this.release();
      throw error;
    }
    this.roundTrips += 1;
    let abandon: (error: Error) => void = () => {};
    const abandoned = new Promise<never>((_, reject) => {
      abandon = reject;
    });
    const sent: InFlightCall = { at: performance.now(), abandon };
    this.sentAt.add(sent);
    this.watchForStalls();
    try {
      const answer = call();
      // An abandoned call's own failure (its timeout, later) has no one waiting for it.
      answer.catch(() => {});
      const result = await Promise.race([answer, abandoned]);
      this.answered();
      return result;
    } catch (error) {
      if (isUnreachable(error)) this.recordFailure();
      // Abandoned on a stall: no answer came.
      else if (!(error instanceof BackendUnavailableError)) this.answered();
      throw error;
    } finally {
      this.sentAt.delete(sent);
      this.release();
    }
  }

  private answered(): void {
    this.consecutive = 0;
    this.lastAnswerAt = performance.now();
    // Elasticsearch answers: whatever a stall probe says later, no stall is suspected now.
    this.stallProbe = undefined;
  }

  /** A timer only while calls are in flight (a check every tenth of the window); it never keeps the process alive. */
  private watchForStalls(): void {
    const stallMs = this.options.stallMs ?? 0;
    if (stallMs <= 0 || this.watchdog) return;
    this.watchdog = setInterval(() => this.checkForStall(stallMs), Math.max(10, stallMs / 10));
    this.watchdog.unref();
  }

  private checkForStall(stallMs: number): void {
    const oldest = this.sentAt.values().next().value;
    if (!oldest) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
      return;
    }
    if (this.state !== 'closed') return;
    const now = performance.now();
    const silent = Math.min(now - oldest.at, now - this.lastAnswerAt);
    if (silent >= stallMs / 2 && !this.stallProbe) this.confirmStall();
    const probe = this.stallProbe;
    const probeUnanswered = probe !== undefined && (probe.unreachable || now - probe.sentAt >= stallMs / 2);
    if (silent >= stallMs && probeUnanswered) {
      this.stallProbe = undefined;
      this.setState('open');
      this.scheduleProbe();
      const stalled = new BackendUnavailableError(`Elasticsearch answered nothing for ${stallMs} ms`);
      for (const waiting of this.sentAt) waiting.abandon(stalled);
    }
  }

  /** Asks Elasticsearch directly whether it is alive: any answer means the calls waiting are just slow. */
  private confirmStall(): void {
    const probe = { sentAt: performance.now(), unreachable: false };
    this.stallProbe = probe;
    const settled = (error?: unknown) => {
      if (isUnreachable(error)) {
        probe.unreachable = true;
        return;
      }
      if (this.stallProbe === probe) this.stallProbe = undefined;
      this.answered();
    };
    this.options.probe().then(() => settled(), settled);
  }

  /** Stops the probe (the process or the test is ending). */
  stop(): void {
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private refuseIfOpen(): void {
    if (this.state === 'open') {
      this.rejectedOpen += 1;
      throw new BackendUnavailableError('circuit breaker open');
    }
  }

  private acquire(): Promise<void> {
    if (this.inFlight < this.options.maxInFlight) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.maxQueued) {
      this.shed += 1;
      return Promise.reject(new OverloadedError());
    }
    // The slot is handed over by release(): inFlight stays counted for the waiter.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight -= 1;
  }

  private recordFailure(): void {
    this.consecutive += 1;
    if (this.state === 'closed' && this.consecutive >= this.options.failureThreshold) {
      this.setState('open');
      this.scheduleProbe();
    }
  }

  private scheduleProbe(delayMs = this.options.probeIntervalMs): void {
    this.probeTimer = setTimeout(() => void this.runProbe(), delayMs);
    // A probe never keeps the process alive on its own.
    this.probeTimer.unref();
  }

  private async runProbe(): Promise<void> {
    try {
      await this.options.probe();
    } catch (error) {
      // An error status is still an answer: Elasticsearch is reachable again.
      if (isUnreachable(error)) {
        if (this.probeTimer) this.scheduleProbe();
        return;
      }
    }
    this.probeTimer = undefined;
    this.answered();
    this.setState('closed');
  }

  private setState(state: BreakerState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }
}
