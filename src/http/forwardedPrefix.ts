/**
 * The path prefix a reverse proxy mounts the service under (`X-Forwarded-Prefix: /geo`, as Traefik sends it and as
 * nginx or Apache are told to), for the answers that hold absolute URLs (TileJSON's tile URL; every other answer's
 * links are relative). Read only when the proxy's headers are trusted (TRUST_PROXY, Koa's `app.proxy`: a client could
 * write one), and only a plain path (segments of letters, digits, `-._~` and percent escapes; the first value of a
 * list); anything else is no prefix.
 */
import type { Context } from 'koa';

const SEGMENT = /^(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+$/;

/** `/geo` for `X-Forwarded-Prefix: /geo/`, '' when there is none or it is not a plain path. */
export function prefixOf(header: string): string {
  const first = header.split(',')[0]?.trim() ?? '';
  if (!first.startsWith('/')) return '';
  const segments = first.split('/').filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..' || !SEGMENT.test(s))) return '';
  return segments.map((s) => `/${s}`).join('');
}

/** Where the request came to, as a client outside the proxy addresses it: protocol, host and path prefix. */
export function externalOrigin(ctx: Context): string {
  const prefix = ctx.app.proxy ? prefixOf(ctx.get('X-Forwarded-Prefix')) : '';
  return `${ctx.protocol}://${ctx.host}${prefix}`;
}
