/**
 * Conditional GET for boundary and hierarchy answers: a weak ETag over the code's build version, the live index
 * generations, the normalised request and the media type, and 304 Not Modified, decided before any body is built; the
 * rendered body itself comes from the body cache when it holds this tag.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { BodyCache } from './bodyCache.js';
import { buildVersion } from './buildVersion.js';

/**
 * `private`: answers need an API key, so a shared cache must not hand them to anyone else. A minute of
 * freshness lets a map pan back without asking; after that the browser revalidates with If-None-Match.
 */
export const CACHE_CONTROL = 'private, max-age=60';

/** The query with its parameters sorted, so `?a=1&b=2` and `?b=2&a=1` share a tag. */
export function normalisedRequest(path: string, querystring: string): string {
  const params = new URLSearchParams(querystring);
  params.sort();
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Weak: the same tag covers the gzip, brotli and identity encodings of one answer. */
export function entityTag(parts: readonly string[]): string {
  return `W/"${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 27)}"`;
}

/**
 * If-None-Match uses weak comparison (RFC 9110 13.1.2): `W/` is ignored on both sides. `*` is not a tag: it
 * matches only a resource that exists (isWildcard; respondCached decides).
 */
export function matchesIfNoneMatch(header: string, tag: string): boolean {
  if (!header) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => opaque(candidate) === wanted);
}

export const isWildcard = (header: string): boolean => header.trim() === '*';

/** A streamed body not sent (a 304) must not keep its Elasticsearch paging open. */
function discardBody(ctx: Context): void {
  const body = ctx.body as { destroy?: () => void } | null | undefined;
  body?.destroy?.();
  ctx.body = null;
}

/**
 * Answers 304 when the client holds the current tag; otherwise builds the answer. The validators go out only
 * with a successful answer, never with an error envelope.
 */
export async function respondCached(
  ctx: Context,
  variant: { generations: readonly string[]; mediaType: string; language?: string; bodies: BodyCache },
  build: () => Promise<void>,
): Promise<void> {
  const parts = [
    buildVersion(),
    ...variant.generations,
    normalisedRequest(ctx.path, ctx.querystring),
    // The language Accept-Language chose (names shown): another language is another body.
    ...(variant.language ? [variant.language] : []),
  ];
  const tag = entityTag([...parts, variant.mediaType]);
  const ifNoneMatch = ctx.get('If-None-Match');
  ctx.vary('Accept');
  if (matchesIfNoneMatch(ifNoneMatch, tag)) {
    ctx.status = 304;
  } else if (isWildcard(ifNoneMatch)) {
    // `*` asks whether the resource exists, which only building it tells (an unknown id throws its 404 here).
    if (!variant.bodies.has(tag)) await build();
    discardBody(ctx);
    ctx.status = 304;
  } else if (!(await variant.bodies.serve(ctx, tag))) {
    // The tag names exactly what the body holds, so it is also the body cache's key.
    await variant.bodies.build(ctx, tag, build);
  }
  ctx.set('ETag', tag);
  ctx.set('Cache-Control', CACHE_CONTROL);
}
