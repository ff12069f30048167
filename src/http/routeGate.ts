import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';
import type { RouteTable } from './routeTable.js';

/**
 * Unknown paths (404), other methods on a known path (405 with Allow; OPTIONS: 204 with Allow) and methods the
 * service does not implement (501), in the JSON error envelope, before the body is read: a body sent to the wrong
 * place is never parsed, and never answered 413 or 415.
 */
export function routeGate(table: RouteTable) {
  // Not async: a routed request (nearly all) goes straight on.
  return (ctx: Context, next: Next) => {
    const resolution = table.resolve(ctx.method, ctx.path);
    switch (resolution.kind) {
      case 'route':
        return next();
      case 'not_found':
        throw new ApiError(404, 'not_found', 'No such endpoint');
      case 'not_implemented':
        throw new ApiError(501, 'not_implemented', `Method ${ctx.method} is not implemented`);
      case 'method_not_allowed':
        ctx.set('Allow', resolution.allow);
        if (ctx.method === 'OPTIONS') {
          ctx.status = 204;
          return Promise.resolve();
        }
        throw new ApiError(405, 'method_not_allowed', `Method ${ctx.method} is not allowed here`);
    }
  };
}
