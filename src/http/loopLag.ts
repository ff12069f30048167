/**
 * How far behind the event loop runs: a timer due every SAMPLE_MS that fires late by as much as the loop is busy.
 * Work that can be refused when the process is behind (cutting a new boundary tile, src/features/tiles/endpoints.ts)
 * reads it, so that an offered load beyond what the process can do becomes a quick 503 with Retry-After instead of a
 * backlog that grows without bound in the sockets, where every request, geocoding too, waits behind it.
 *
 * The lag is sustained lateness: the least of the last SUSTAINED_TICKS ticks' lateness. One long piece of work (a
 * level's tile index built, a garbage collection) makes one tick late and is over: that is no reason to refuse
 * anything. An offered load beyond the process's makes every loop turn long, so every tick late. One sampler per
 * process (the event loop is the process's), started on first use, unref'd: it never keeps the process alive.
 */

export const SAMPLE_MS = 10;
export const SUSTAINED_TICKS = 3;

/** The lag from the ticks of a timer due every `intervalMs` (pure: the clock is passed in). */
export class LoopLag {
  private last: number;
  /** The lateness of the last SUSTAINED_TICKS ticks, newest last. */
  private readonly late: number[] = [];

  constructor(
    private readonly intervalMs: number,
    now: number,
  ) {
    this.last = now;
  }

  /** The timer fired at `now`. */
  tick(now: number): void {
    this.late.push(Math.max(0, now - this.last - this.intervalMs));
    if (this.late.length > SUSTAINED_TICKS) this.late.shift();
    this.last = now;
  }

  /** Milliseconds the loop has been behind over the last ticks (0 until there were SUSTAINED_TICKS of them). */
  get lagMs(): number {
    return this.late.length < SUSTAINED_TICKS ? 0 : Math.min(...this.late);
  }
}

let sampler: LoopLag | undefined;

/** The process's event-loop lag, in milliseconds (0 until the sampler, started on the first call, has ticked). */
export function loopLagMs(): number {
  if (!sampler) {
    const lag = new LoopLag(SAMPLE_MS, performance.now());
    setInterval(() => lag.tick(performance.now()), SAMPLE_MS).unref();
    sampler = lag;
  }
  return sampler.lagMs;
}
