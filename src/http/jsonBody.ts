import type { Context, Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import { ApiError } from './errors.js';

/** JSON bodies only, with a hard size limit; anything else is refused before parsing. */
export function jsonBody(limitBytes: number) {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitBytes}b`, strict: true });
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'POST') return next();
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    return parse(ctx, next);
  };
}
