/**
 * CORS for browser map clients, from CORS_ORIGINS. Runs before authentication: a browser sends a preflight
 * without custom headers, so it can never carry X-Api-Key.
 */
import cors from '@koa/cors';
import type { Context, Next } from 'koa';

/** Headers a browser script may read: the cache validator, the id to quote in a report, the back-off hints. */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Request-Id',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];
const ALLOWED_HEADERS = ['X-Api-Key', 'Content-Type', 'If-None-Match'];
/** Browsers cache a preflight answer this long (capped by the browser: 2 h in Chromium, 1 day in Firefox). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function allowedOrigin(allowed: readonly string[], requestOrigin: string): string {
  if (allowed.includes('*')) return '*';
  return allowed.includes(requestOrigin) ? requestOrigin : '';
}

const isPreflight = (ctx: Context) => ctx.method === 'OPTIONS' && Boolean(ctx.get('Access-Control-Request-Method'));

export function corsPolicy(allowed: readonly string[]) {
  const handle = cors({
    origin: (ctx) => allowedOrigin(allowed, ctx.get('Origin')),
    allowMethods: ['GET', 'HEAD', 'POST'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
  // A preflight from an origin that is not allowed gets an answer without CORS headers (the browser then blocks
  // the real request) rather than falling through to the key check's 401.
  const answer = (ctx: Context, next: Next) =>
    handle(ctx, async () => {
      if (isPreflight(ctx)) ctx.status = 204;
      else await next();
    });
  return (ctx: Context, next: Next) => {
    // Most requests: not OPTIONS, from no allowed origin (no Origin at all). @koa/cors then only adds
    // `Vary: Origin` and goes on; done here, without its layer's promises and the wrapper above.
    if (ctx.method !== 'OPTIONS' && !allowedOrigin(allowed, ctx.get('Origin'))) {
      ctx.vary('Origin');
      return next();
    }
    return answer(ctx, next);
  };
}
