/**
 * A compatibility dialect's path with one trailing slash is read as the path without it, as the services they
 * imitate read it: Photon answers `/api/` as `/api`, and Leaflet Control Geocoder's Photon default is `…/api/`. Only
 * the dialects' paths (the routes that take the key in the path, src/http/pathKey.ts); every native path keeps one
 * spelling (`/health/` is a 404). Runs right after the path key is cut, before anything else reads the path, so the
 * request logs, routes, authenticates and caches under the path without the slash. No redirect: a client would send
 * its request twice.
 */
import type { Context, Next } from 'koa';

/** The path a dialect's client meant: `path` without its trailing slash when that is a dialect's path. */
export function dialectPath(path: string, isDialectPath: (path: string) => boolean): string {
  if (path.length < 2 || !path.endsWith('/')) return path;
  const bare = path.slice(0, -1);
  return isDialectPath(bare) ? bare : path;
}

export function dialectSlash(isDialectPath: (path: string) => boolean) {
  return (ctx: Context, next: Next) => {
    const path = dialectPath(ctx.path, isDialectPath);
    if (path !== ctx.path) ctx.path = path;
    return next();
  };
}
