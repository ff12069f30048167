/**
 * The API key as the path's first segments, `/k/<key>/…`, for clients that take an endpoint URL and can carry a key
 * in neither a header nor the query string (QGIS' Nominatim locator replaces the endpoint's query string with its
 * own and sends no header of ours). The prefix is cut off the path before anything else sees the request, so the
 * key is in no log line, metric label, error message, ETag or cache key, and the rest routes as usual. It counts
 * only on the routes that declare `keyInPath` (the compatibility dialects); elsewhere it is ignored and the request
 * answers as it would without it (401 on a keyed native route). Nothing becomes anonymous.
 */
import type { Context, Next } from 'koa';

const PREFIX = '/k/';

/**
 * The key a path carries and the path without it; undefined: no `/k/` prefix. An empty or malformed (bad percent
 * escape) key is the empty string: no key, and still cut off the path.
 */
export function splitPathKey(path: string): { key: string; rest: string } | undefined {
  if (!path.startsWith(PREFIX)) return undefined;
  const end = path.indexOf('/', PREFIX.length);
  const segment = end < 0 ? path.slice(PREFIX.length) : path.slice(PREFIX.length, end);
  const rest = end < 0 ? '/' : path.slice(end);
  try {
    return { key: decodeURIComponent(segment), rest };
  } catch {
    return { key: '', rest };
  }
}

/** The first middleware: cuts `/k/<key>` off the path and keeps the key for authentication (pathKeyOf). */
export function pathKey() {
  return (ctx: Context, next: Next) => {
    const split = splitPathKey(ctx.path);
    if (split) {
      ctx.path = split.rest;
      (ctx.state as { pathKey?: string }).pathKey = split.key;
    }
    return next();
  };
}

/** The key the path carried, when the route it leads to takes one there. */
export function pathKeyOf(ctx: Context, keyInPath: (path: string) => boolean): string | undefined {
  const key = (ctx.state as { pathKey?: string }).pathKey;
  return key && keyInPath(ctx.path) ? key : undefined;
}
