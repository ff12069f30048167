import { readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';

/**
 * The browser-facing pages (/docs, /map) and the npm packages they run on, served by the service itself so
 * that it works offline and behind a firewall (no CDN). Only files named up front are served: a request
 * path never becomes a file path, so there is no traversal to guard against.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  /** URL path, e.g. `/map/app.js`. */
  url: string;
  /** Absolute path on disk. */
  file: string;
  /**
   * Vendor files change only with a package upgrade (a restart): browsers may keep them for a day.
   * Our own pages are revalidated on every load so a deploy shows at once.
   */
  immutable?: boolean;
}

/** Every file of `directory` named in `names`, under `urlPrefix`. */
export function filesOf(urlPrefix: string, directory: string, names: string[], immutable = false): StaticFile[] {
  return names.map((name) => ({ url: `${urlPrefix}/${name}`, file: join(directory, name), immutable }));
}

/** Files are read once, on first request, and kept: they are small and never change while the process runs. */
export function registerStaticFiles(router: Router, files: StaticFile[]): void {
  for (const entry of files) {
    const type = CONTENT_TYPES[extname(entry.file)];
    if (!type) throw new Error(`no content type for ${entry.file}`);
    // Fail at start-up, not on a user's first visit, when a package or page file is missing.
    statSync(entry.file);
    let body: Buffer | undefined;
    router.get(entry.url, (ctx: Context) => {
      body ??= readFileSync(entry.file);
      ctx.type = type;
      ctx.set('Cache-Control', entry.immutable ? 'public, max-age=86400' : 'no-cache');
      ctx.body = body;
    });
  }
}

/** `/docs` -> `/docs/`: relative asset URLs in the page then resolve under the page's folder. */
export function redirectToFolder(router: Router, path: string): void {
  router.get(path, (ctx: Context, next: Next) => {
    // The router ignores a trailing slash, so `/docs/` matches here too: that one goes on to the page itself.
    if (ctx.path !== path) return next();
    ctx.status = 301;
    ctx.redirect(`${path}/`);
  });
}

/** Paths answered without a key: the pages load before the user has typed one. */
export function isOpenPagePath(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
