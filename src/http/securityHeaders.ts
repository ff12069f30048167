/**
 * Security headers on every answer, pages and API alike. A page (HTML) may run only the service's own scripts and
 * styles (no inline script, no third-party host: the pages and their packages are served from here), fetch only
 * from here, and may not be framed; anything else (JSON, GeoJSON, text) is never a document, so its policy allows
 * nothing at all. `nosniff` keeps a browser from reading an answer as another type; no Referer leaves the pages.
 */
import type { Context } from 'koa';

export const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // Leaflet and Swagger UI draw some icons from data: URIs; map outlines are SVG built in the page.
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
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

/** Once the answer is known (its type decides the policy: an error envelope is JSON too), before it is sent. */
export function setSecurityHeaders(ctx: Context): void {
  ctx.set(NON_DOCUMENT_HEADERS);
  // `is('html')` parses the type each time; a type without "html" in it cannot be a page.
  const type = ctx.response.get('Content-Type');
  if (typeof type === 'string' && HTML.test(type) && ctx.response.is('html')) {
    ctx.set('Content-Security-Policy', PAGE_POLICY);
  }
}
