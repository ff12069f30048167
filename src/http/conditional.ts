/**
 * Conditional GET for boundary and hierarchy answers: a weak ETag over the live index generations, the
 * normalised request and the media type, and 304 Not Modified, decided before any body is built; the
 * rendered body itself comes from the body cache when it holds this tag.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { BodyCache } from './bodyCache.js';

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

/** If-None-Match uses weak comparison (RFC 9110 13.1.2): `W/` is ignored on both sides; `*` matches any. */
export function matchesIfNoneMatch(header: string, tag: string): boolean {
  if (!header) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
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
  const tag = entityTag([
    ...variant.generations,
    normalisedRequest(ctx.path, ctx.querystring),
    variant.mediaType,
    // The language Accept-Language chose (names shown): another language is another body.
    ...(variant.language ? [variant.language] : []),
  ]);
  ctx.vary('Accept');
  if (matchesIfNoneMatch(ctx.get('If-None-Match'), tag)) {
    ctx.status = 304;
  } else if (!(await variant.bodies.serve(ctx, tag))) {
    // The tag names exactly what the body holds, so it is also the body cache's key.
    await build();
    variant.bodies.keep(ctx, tag);
  }
  ctx.set('ETag', tag);
  ctx.set('Cache-Control', CACHE_CONTROL);
}
