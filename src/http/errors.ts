import type { Context, Next } from 'koa';
import type { ZodError } from 'zod';
import { BackendUnavailableError, InvalidQueryError, NotFoundError } from '../domain/errors.js';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'no_match'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'backend_unavailable'
  | 'internal_error';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

export function invalidRequest(error: ZodError, where: 'body' | 'query' | 'path'): ApiError {
  const details = error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new ApiError(400, 'invalid_request', `Invalid request ${where}`, details);
}

/** The one place where what went wrong becomes a status: domain errors by kind, anything else a 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof NotFoundError) return new ApiError(404, 'not_found', error.message);
  if (error instanceof BackendUnavailableError) return new ApiError(503, 'backend_unavailable', error.message);
  if (error instanceof InvalidQueryError) {
    return new ApiError(400, 'invalid_request', 'Invalid request body', [{ path: error.path, message: error.message }]);
  }
  return new ApiError(500, 'internal_error', 'Internal server error');
}

export function errorBody(error: ApiError) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** Every failure leaves as the JSON error envelope; internals go to the log, never to the client. */
export async function errorEnvelope(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.body == null && ctx.status === 404) throw new ApiError(404, 'not_found', 'No such endpoint');
    if (ctx.body == null && ctx.status === 405) {
      throw new ApiError(405, 'method_not_allowed', `Method ${ctx.method} is not allowed here`);
    }
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500) ctx.state.error = error;
    ctx.status = apiError.status;
    ctx.body = errorBody(apiError);
    if (apiError.status === 503) ctx.set('Retry-After', '1');
  }
}
