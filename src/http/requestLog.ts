import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from 'pino';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id: the client's own `X-Request-Id` when it is a plausible one, else a new UUID. It is echoed in
 * `X-Request-Id` so a client can quote it, and kept in `ctx.state.requestId` for the log lines of the request.
 */
export function assignRequestId(ctx: Context): string {
  const incoming = ctx.get('x-request-id');
  const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = requestId;
  ctx.set('X-Request-Id', requestId);
  return requestId;
}

/** One structured line per request, once it is answered; `started`: process.hrtime.bigint() at its arrival. */
export function logRequest(logger: Logger, ctx: Context, requestId: string, started: bigint): void {
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
