/** When the guard around Elasticsearch gives up on a read or a node (BREAKER_STALL_MS, ES_ATTEMPT_TIMEOUT_MS). */

/**
 * Issue 22's target is a first fast 503 within 1.5 s of a freeze: the breaker opens after 1 s of silence while a
 * read waits, and only once a probe sent after 0.5 s is unanswered too, so a slow read on a living cluster never
 * opens it (core/elasticsearch/circuitBreaker.ts).
 */
export const DEFAULT_BREAKER_STALL_MS = 1000;
/**
 * ES_ATTEMPT_TIMEOUT_MS when unset. One node: 0 (a retry would go to the same node). Several: a tenth of the
 * request timeout (a healthy read takes a few tens of ms, so one cut there was slow anyway and goes on elsewhere
 * with the rest of the timeout), and under 0.4 of the stall window, so a read that met a frozen node has moved on
 * and been answered before the stall probe (which may go to the frozen node too) could open the breaker.
 * At the defaults: 400 ms.
 */
export function defaultAttemptTimeoutMs(nodes: number, requestTimeoutMs: number, stallMs: number): number {
  if (nodes < 2) return 0;
  const share = Math.round(requestTimeoutMs / 10);
  return stallMs > 0 ? Math.min(share, Math.floor(stallMs * 0.4)) : share;
}
