/**
 * Which Elasticsearch failures mean "the backend is unavailable" (retry later), decided once for failed
 * requests and for failed items inside an `_msearch` answer, and turned into the domain's error here, so
 * nothing above this folder needs to know the client's error classes.
 */
import { errors as esErrors, type estypes } from '@elastic/elasticsearch';
import { BackendUnavailableError } from '../../core/domain/errors.js';
import { isUnreachable } from '../../core/elasticsearch/circuitBreaker.js';

/** The part of an Elasticsearch error answer read here (the client types the body `any`). */
type ErrorBody = { error?: { type?: string } };

/** An Elasticsearch answer that means "overloaded or without our indexes", for a request or one msearch item. */
export function isUnavailableAnswer(status: number, errorType: string | undefined): boolean {
  return status === 429 || status >= 502 || errorType === 'index_not_found_exception';
}

function isBackendUnavailable(error: unknown): boolean {
  if (isUnreachable(error)) return true;
  if (error instanceof esErrors.ResponseError) {
    return isUnavailableAnswer(error.statusCode ?? 0, (error.body as ErrorBody | undefined)?.error?.type);
  }
  return false;
}

/** A client error as the domain sees it: BackendUnavailableError, or the error itself (a bug: 500). */
export function asDomainError(error: unknown): unknown {
  if (error instanceof BackendUnavailableError) return error;
  return isBackendUnavailable(error) ? new BackendUnavailableError(error) : error;
}

/** msearch reports per-search failures in its body; surface them as a failed request would be. */
export function msearchFailure(item: estypes.ErrorResponseBase): Error {
  if (isUnavailableAnswer(item.status, item.error.type)) return new BackendUnavailableError(item.error);
  return new Error(`search failed: ${item.error.type}: ${item.error.reason ?? ''}`);
}

/** Runs an Elasticsearch call and rethrows its failure as a domain error. */
export async function elasticsearchCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asDomainError(error);
  }
}
