/**
 * What every request gets around everything else, in one layer: its id and log line, the metrics of its answer,
 * the security headers and, while draining, `Connection: close`. Each was a Koa middleware of its own: a promise,
 * a bound dispatch and a try/finally per request each, for work that is synchronous before and after the rest of
 * the chain. The steps run in the order the layers did: on the way in the log's then the metrics'; on the way out
 * the metrics', the security headers, the draining notice, then the log line (which sees the final status).
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import { assignRequestId, logRequest } from './requestLog.js';
import { PAGE_POLICY, setSecurityHeaders } from './securityHeaders.js';
import { askToCloseWhenDraining, type ServiceState } from './serviceState.js';

/** `pagePolicy`: the Content-Security-Policy of the pages (securityHeaders.ts: pagePolicy). */
export function requestFrame(logger: Logger, metrics: Metrics, state: ServiceState, pagePolicy = PAGE_POLICY) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = assignRequestId(ctx);
    metrics.enter();
    try {
      await next();
    } finally {
      metrics.leave(ctx, started);
      setSecurityHeaders(ctx, pagePolicy);
      askToCloseWhenDraining(ctx, state);
      logRequest(logger, ctx, requestId, started);
    }
  };
}
