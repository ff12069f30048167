import { readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
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
  /** Absolute path on disk (its extension gives the type), or a name with the extension when `content` is given. */
  file: string;
  /** The answer itself, made at start-up (a page's configuration), instead of the file's. */
  content?: Buffer;
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

/** One page: its folder URL (`/map`, answered at `/map/` by its index file) and every file it loads. */
export interface StaticPage {
  prefix: string;
  index: string;
  files: StaticFile[];
}

interface Served {
  type: string;
  cacheControl: string;
  file: string;
  body?: Buffer;
}

/**
 * Serves the pages' files from one lookup table (one Map lookup per request, not a router layer per file).
 * Files are read once, on first request, and kept: they are small and never change while the process runs.
 * `/map` redirects to `/map/`, so relative asset URLs in the page resolve under its folder.
 */
export function staticPages(pages: readonly StaticPage[]) {
  const served = new Map<string, Served>();
  const folders = new Set(pages.map((page) => page.prefix));
  for (const page of pages) {
    for (const entry of [{ url: `${page.prefix}/`, file: page.index }, ...page.files]) {
      const type = CONTENT_TYPES[extname(entry.file)];
      if (!type) throw new Error(`no content type for ${entry.file}`);
      const content = 'content' in entry ? entry.content : undefined;
      // Fail at start-up, not on a user's first visit, when a package or page file is missing.
      if (!content) statSync(entry.file);
      const immutable = 'immutable' in entry && entry.immutable;
      served.set(entry.url, {
        type,
        cacheControl: immutable ? 'public, max-age=86400' : 'no-cache',
        file: entry.file,
        body: content,
      });
    }
  }
  // Not async: a file is in memory once read, and the API's paths go straight on.
  return (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (folders.has(ctx.path)) {
      ctx.status = 301;
      ctx.redirect(`${ctx.path}/`);
      return Promise.resolve();
    }
    const entry = served.get(ctx.path);
    if (!entry) return next();
    entry.body ??= readFileSync(entry.file);
    ctx.type = entry.type;
    ctx.set('Cache-Control', entry.cacheControl);
    ctx.body = entry.body;
    return Promise.resolve();
  };
}

/** Every path the pages answer (GET): the folder (redirected), its index and its files. */
export function pagePaths(pages: readonly StaticPage[]): string[] {
  return pages.flatMap((page) => [page.prefix, `${page.prefix}/`, ...page.files.map((file) => file.url)]);
}

/** Paths answered without a key: the pages load before the user has typed one (unknown files there are 404s). */
export function isOpenPagePath(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
