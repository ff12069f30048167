import { errors as esErrors } from '@elastic/elasticsearch';
import type { Context, Next } from 'koa';
import type { ZodError } from 'zod';

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

export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} not found`);
}

export function backendUnavailable(): ApiError {
  return new ApiError(503, 'backend_unavailable', 'The search backend is unavailable; retry later');
}

export function invalidRequest(error: ZodError, where: 'body' | 'query' | 'path'): ApiError {
  const details = error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new ApiError(400, 'invalid_request', `Invalid request ${where}`, details);
}

/** An Elasticsearch answer that means "overloaded or without our indexes", for a request or one msearch item. */
export function isUnavailableAnswer(status: number, errorType: string | undefined): boolean {
  return status === 429 || status >= 502 || errorType === 'index_not_found_exception';
}

/** Elasticsearch unreachable, timing out, overloaded or without our indexes: the client should retry later. */
function isBackendUnavailable(error: unknown): boolean {
  if (
    error instanceof esErrors.ConnectionError ||
    error instanceof esErrors.TimeoutError ||
    error instanceof esErrors.NoLivingConnectionsError
  ) {
    return true;
  }
  if (error instanceof esErrors.ResponseError) {
    return isUnavailableAnswer(error.statusCode ?? 0, error.body?.error?.type);
  }
  return false;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isBackendUnavailable(error)) return backendUnavailable();
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
