/**
 * Calls to the geocoder API from the page: every request carries the key the user gave, and every failure
 * becomes an ApiError naming the request, so the status line can say what went wrong and where.
 */

export class ApiError extends Error {
  constructor(path, status, code, message) {
    super(message);
    this.path = path;
    /** 0 when the service did not answer at all. */
    this.status = status;
    this.code = code;
  }
}

/** The code of a call not made because there is no key yet: the key dialog is open already. */
export const NO_KEY = 'no_key';

/** `?a=1&b=2` of the parameters that have a value; '' when none has. */
export function queryString(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * `languageOf()`: the language picked on the page ('' for the browser's own).
 * `get(path, { fresh })` answers the parsed JSON body. A 401 also calls `onUnauthorized` (the page asks for a key again)
 * before it is thrown like any other error.
 */
export function createApi({ keyOf, onUnauthorized, languageOf = () => '' }) {
  return async function get(path, { fresh = false } = {}) {
    // No key (the service refused the last one and the page is asking again): nothing is sent without one.
    if (!keyOf()) throw new ApiError(path, 0, NO_KEY, 'no API key yet');
    let response;
    try {
      // `fresh`: past the browser's cache (answers may be kept 60 s), so the service sees the key now.
      const cache = fresh ? 'no-store' : 'default';
      // The names shown follow the browser's Accept-Language; a language chosen on the page replaces it.
      const language = languageOf();
      const headers = {
        'X-Api-Key': keyOf(),
        Accept: 'application/json',
        ...(language && { 'Accept-Language': language }),
      };
      response = await fetch(path, { cache, headers });
    } catch {
      throw new ApiError(path, 0, 'network_error', 'the service did not answer');
    }
    if (response.ok) return response.json();
    const body = await response.json().catch(() => null);
    const error = new ApiError(
      path,
      response.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? response.statusText,
    );
    if (response.status === 401) onUnauthorized(error);
    throw error;
  };
}
