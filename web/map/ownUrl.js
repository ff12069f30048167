/**
 * Which requests are this service's own, and so carry its key: a URL is ours only if, resolved against the page's
 * address, it has the page's origin. A path starting with `/` is not enough: `//host/...` (protocol-relative) and
 * `/\host/...` (a browser reads the backslash as a slash) name another host.
 */

/** `page`: the page's location (`location`, or a URL in tests). */
export function isOwnUrl(url, page = location) {
  let resolved;
  try {
    resolved = new URL(url, page.href);
  } catch {
    return false;
  }
  // An opaque origin (data:, blob: of another page, a file) is never ours, even beside a page whose own is opaque.
  return resolved.origin !== 'null' && resolved.origin === page.origin;
}
