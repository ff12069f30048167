import type { Context, Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import { ApiError } from './errors.js';

function parser(limitBytes: number) {
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${limitBytes}b`,
    strict: true,
    onerror: (error) => {
      if ((error as { status?: number }).status === 413) {
        throw new ApiError(413, 'payload_too_large', `Request body exceeds ${limitBytes} bytes`);
      }
      throw new ApiError(400, 'invalid_request', 'Request body is not a valid JSON object');
    },
  });
}

/**
 * JSON bodies only, with a hard size limit; anything else is refused before parsing. `limitsByPath` gives
 * endpoints whose bodies are larger by design (a batch of 1,000 addresses) their own limit.
 */
export function jsonBody(limitBytes: number, limitsByPath: Record<string, number> = {}) {
  const parse = parser(limitBytes);
  const parseByPath = new Map(Object.entries(limitsByPath).map(([path, limit]) => [path, parser(limit)]));
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'POST') return next();
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    return (parseByPath.get(ctx.path) ?? parse)(ctx, next);
  };
}
