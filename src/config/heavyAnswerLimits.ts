/** The limits of heavy answers (src/http/heavyAnswers.ts applies them) and their defaults. */

export interface HeavyAnswerLimits {
  /** An answer of at least this many bytes on the wire is heavy. */
  minBytes: number;
  /** Heavy answers being written at once; 0 turns the bound (and the slicing) off. */
  concurrent: number;
  /** Heavy answers waiting for a slot at most; one more is refused. */
  queued: number;
  /** Pace of one heavy answer; 0: unpaced. */
  bytesPerSecond: number;
  /** A client that has not taken its next slice for this long gives its slot up (0: it never does). */
  stallMs: number;
  /**
   * Answers that gave their slot up (slow readers) written at once at most; past it a slow reader keeps its slot
   * until one of them ends.
   */
  stalled: number;
  /** A client that has taken nothing for this long is cut (0: never). */
  sendTimeoutMs: number;
}

/**
 * The defaults, which HEAVY_ANSWER* variables override (./service.ts). Heavy: a boundary collection of a
 * country or more (the world's countries are ~630 KB of brotli, a province's municipalities ~15 KB). Two written at
 * once, each at up to 8 MiB/s (64 Mbit/s: the world's countries in 80 ms, faster than most map clients' own links),
 * so boundary downloads take at most ~16 MiB/s of the service and geocoding keeps the rest of a small box; a few
 * hundred waiting is far more than the map clients of a deployment ask at one moment, and each waits in memory only
 * as a request.
 */
export const DEFAULT_HEAVY_ANSWERS: HeavyAnswerLimits = {
  minBytes: 256 * 1024,
  concurrent: 2,
  queued: 256,
  bytesPerSecond: 8 * 1024 * 1024,
  // A client taking a 64 KiB slice in more than 250 ms reads at under 256 KiB/s: its link, not the service, is
  // what its answer waits for.
  stallMs: 250,
  // Each holds what its client has not taken: at most a page of hits of an answer being built, or a kept body (at
  // most a quarter of BODY_CACHE_BYTES, held beyond the cache's bound only once evicted from it). Eight such
  // readers besides the two slots is more slow downloads at once than a deployment's map clients make.
  stalled: 8,
  sendTimeoutMs: 60_000,
};
