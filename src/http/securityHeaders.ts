/**
 * Security headers on every answer, pages and API alike. A page (HTML) may run only the service's own scripts and
 * styles (no inline script, no third-party host: the pages and their packages are served from here), fetch only
 * from here, and may not be framed; anything else (JSON, GeoJSON, text) is never a document, so its policy allows
 * nothing at all. `nosniff` keeps a browser from reading an answer as another type; no Referer leaves the pages.
 */
import type { Context } from 'koa';

/**
 * The pages' policy. `fetchOrigins`: other hosts the map page may fetch from and show images of (a base map the
 * deployment configured: src/config/mapBase.ts); none by default.
 */
export function pagePolicy(fetchOrigins: readonly string[] = []): string {
  const others = fetchOrigins.map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'self'",
    // MapLibre's worker is a module from the service too (worker-src falls back to script-src).
    "script-src 'self'",
    "style-src 'self'",
    // Swagger UI draws some icons from data: URIs; MapLibre decodes images through blob: URLs.
    `img-src 'self' data: blob:${others}`,
    "font-src 'self' data:",
    `connect-src 'self'${others}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
export const PAGE_POLICY = pagePolicy();
export const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Every header of an answer that is not a page (also set by the anonymous gate's pre-rendered 429). */
export const NON_DOCUMENT_HEADERS = {
  'Content-Security-Policy': NON_DOCUMENT_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // For browsers without CSP level 2's frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const HTML = /html/i;
const SCRIPT = /^text\/javascript/i;

/**
 * Once the answer is known (its type decides the policy: an error envelope is JSON too), before it is sent. A
 * script gets the pages' policy too: a worker's policy is the one its script was served with (MapLibre's worker
 * fetches the tiles), and for a script run by a page the header means nothing.
 */
export function setSecurityHeaders(ctx: Context, policy: string = PAGE_POLICY): void {
  ctx.set(NON_DOCUMENT_HEADERS);
  // `is('html')` parses the type each time; a type without "html" in it cannot be a page.
  const type = ctx.response.get('Content-Type');
  if (typeof type !== 'string') return;
  if ((HTML.test(type) && ctx.response.is('html')) || SCRIPT.test(type)) ctx.set('Content-Security-Policy', policy);
}
