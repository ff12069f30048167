/** How long a sliced answer has waited for its client (src/http/heavyAnswers.ts gives up its slot or cuts it). */

/** `stallMs`: the client gives its slot up after this long without taking its slice; `sendTimeoutMs`: it is cut. */
export interface ClientLimits {
  stallMs: number;
  sendTimeoutMs: number;
}

/**
 * How long the client of one sliced answer has left the slice handed to it untaken, with one timer at a time:
 * `onStall` once it has waited `stallMs`, `onTimeout` once it has waited `sendTimeoutMs`. Waiting for the pace is
 * not the client's wait: the stream has been asked for its next slice then.
 */
export class ClientWatch {
  /** When the slice now waiting for the client was handed out; undefined while the stream has been asked. */
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stalled = false;
  private stopped = false;

  constructor(
    private readonly limits: ClientLimits,
    private readonly onStall: () => void,
    private readonly onTimeout: () => void,
  ) {}

  handedOut(): void {
    if (this.stopped) return;
    this.since = performance.now();
    if (!this.timer) this.arm(this.nextLimit(), 0);
  }

  asked(): void {
    this.since = undefined;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next bound to watch for (ms of waiting), or undefined when none is left. */
  private nextLimit(): number | undefined {
    const { stallMs, sendTimeoutMs } = this.limits;
    if (!this.stalled && stallMs > 0) return stallMs;
    return sendTimeoutMs > 0 ? sendTimeoutMs : undefined;
  }

  /** `waited`: how long the slice now out has waited for the client already. */
  private arm(limit: number | undefined, waited: number): void {
    if (limit === undefined) return;
    this.timer = setTimeout(() => this.check(), Math.max(1, limit - waited)).unref();
  }

  private check(): void {
    this.timer = undefined;
    // Asked since: nothing to watch until the next slice is handed out (which arms the timer again).
    if (this.stopped || this.since === undefined) return;
    const waited = performance.now() - this.since;
    const { stallMs, sendTimeoutMs } = this.limits;
    if (!this.stalled && stallMs > 0 && waited >= stallMs) {
      this.stalled = true;
      this.onStall();
    }
    if (sendTimeoutMs > 0 && waited >= sendTimeoutMs) {
      this.stop();
      this.onTimeout();
      return;
    }
    this.arm(this.nextLimit(), waited);
  }
}
