import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { z, ZodError } from 'zod';
import { issueMessage } from './issueMessage.js';
import {
  BackendUnavailableError,
  InvalidQueryError,
  NotFoundError,
  OverloadedError,
} from '../../core/domain/errors.js';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'no_match'
  | 'method_not_allowed'
  | 'not_implemented'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'backend_unavailable'
  | 'overloaded'
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

/**
 * `at`: where inside `where` the validated value sits (a batch item: ['items', 3]). The one place a failed schema
 * becomes the 400's details (src/http/issueMessage.ts words each issue).
 */
export function invalidRequest(
  error: ZodError,
  where: 'body' | 'query' | 'path',
  at: readonly (string | number)[] = [],
): ApiError {
  const pathOf = (path: readonly PropertyKey[]) => [where, ...at, ...path].map(String).join('.');
  const details = error.issues.flatMap((issue) =>
    // One detail per unknown key, at its own path, so a client sees which parameter or field to fix.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: pathOf([...issue.path, key]),
          message: `unknown ${where === 'body' ? 'field' : 'parameter'}`,
        }))
      : [{ path: pathOf(issue.path), message: issueMessage(issue) }],
  );
  return new ApiError(400, 'invalid_request', `Invalid request ${where}`, details);
}

/** A body field that passed the schema but cannot be read (a house number without digits). */
export function unreadableField(error: InvalidQueryError, at: readonly (string | number)[] = []): ApiError {
  const path = ['body', ...at, error.field].map(String).join('.');
  return new ApiError(400, 'invalid_request', 'Invalid request body', [{ path, message: error.message }]);
}

/** The one place where what went wrong becomes a status: domain errors by kind, anything else a 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof NotFoundError) return new ApiError(404, 'not_found', error.message);
  if (error instanceof BackendUnavailableError) return new ApiError(503, 'backend_unavailable', error.message);
  if (error instanceof OverloadedError) return new ApiError(503, 'overloaded', error.message);
  if (error instanceof InvalidQueryError) return unreadableField(error);
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

/**
 * How a stream reports the client's going away (the socket closed by the client, or cut by our own send timeout,
 * while the body was still being written): Node's premature close, and the socket's own errors.
 */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export const CLIENT_ABORT_MESSAGE = 'client closed the connection before the answer was complete';

/** Whether a failure of a started answer is the client's leaving (expected) rather than our body's failure. */
export function isClientAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

/**
 * A failure after the status line went out. The client's leaving mid-body (a map panning on, the heavy-answer send
 * timeout) is expected: one info line, and `client_abort`. Anything else (a streamed collection whose later page
 * failed) is ours: the status cannot change any more, and ending the body normally would hand the client a truncated
 * document under a 200, so the connection is destroyed instead (every client sees an error: an incomplete chunked
 * body), the failure logged with the request's id (the request line itself already said 200), and `broken`.
 */
export function abortStartedResponse(
  ctx: Context,
  error: unknown,
  logger: Pick<Logger, 'error' | 'info'>,
): 'client_abort' | 'broken' {
  const where = { request_id: ctx.state.requestId, route: (ctx as { _matchedRoute?: string })._matchedRoute ?? null };
  if (isClientAbort(error)) {
    logger.info({ ...where, reason: (error as { code: string }).code }, CLIENT_ABORT_MESSAGE);
    ctx.res.destroy();
    return 'client_abort';
  }
  logger.error({ ...where, err: error }, 'response failed after the status line: connection closed');
  ctx.res.destroy();
  return 'broken';
}

/**
 * An error body in another API's shape (a compatibility dialect's: src/features/dialects/), made from the same
 * ApiError, so the status, the message and what is kept from the client stay decided here.
 */
export interface ErrorShape {
  /** The body's schema, for the API document. */
  schema: z.ZodType;
  body: (error: ApiError) => unknown;
}

/** The message with its details, for error shapes that have one string only: "Invalid request query: q: ...". */
export function errorText(error: ApiError): string {
  const details = (error.details ?? []).map((d) => `${d.path.replace(/^query\./, '')}: ${d.message}`);
  return details.length ? `${error.message}: ${details.join('; ')}` : error.message;
}

/** Every failure leaves as the JSON error envelope; internals go to the log, never to the client. */
export const errorEnvelope = errorEnvelopeWith(() => undefined);

/** The envelope, or the shape `shapeOf` names for the request's path (a dialect's route). */
export function errorEnvelopeWith(shapeOf: (path: string) => ErrorShape | undefined) {
  return async (ctx: Context, next: Next) => {
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
      ctx.body = (shapeOf(ctx.path)?.body ?? errorBody)(apiError);
      if (apiError.status === 503) ctx.set('Retry-After', '1');
    }
  };
}
