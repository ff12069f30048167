import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** One structured line per request; the id is echoed in `X-Request-Id` so a client can quote it. */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        request_id: requestId,
        method: ctx.method,
        route: (ctx as { _matchedRoute?: string })._matchedRoute ?? null,
        path: ctx.path,
        status: ctx.status,
        latency_ms: Math.round(latencyMs * 100) / 100,
        key: ctx.state.keyFingerprint ?? null,
      };
      if (ctx.state.error) logger.error({ ...line, err: ctx.state.error }, 'request failed');
      else logger.info(line, 'request');
    }
  };
}
