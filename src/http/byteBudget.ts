/**
 * The bytes of answers in flight that the service holds for clients, one budget for all of them
 * (ANSWERS_IN_FLIGHT_BYTES): the copies of answers being built for the body cache (src/http/cacheCopy.ts) and the
 * heavy answers held in memory for one request until they are written (src/http/heavyAnswers.ts). An answer that
 * cannot get bytes is not kept (a copy) or is refused (a held answer), so clients that read slowly or not at all
 * cannot make the process hold more than this, however many they are.
 */
export class ByteBudget {
  private taken = 0;

  constructor(readonly maxBytes: number) {}

  /** Takes `bytes` if they fit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.taken + bytes > this.maxBytes) return false;
    this.taken += bytes;
    return true;
  }

  give(bytes: number): void {
    this.taken = Math.max(0, this.taken - bytes);
  }

  get takenBytes(): number {
    return this.taken;
  }
}

/** A budget that never refuses (tests and tools that measure something else). */
export const unboundedBudget = () => new ByteBudget(Number.POSITIVE_INFINITY);
