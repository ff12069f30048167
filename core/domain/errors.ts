/**
 * What the data layer can say went wrong, without knowing about HTTP: `src/http/errors.ts` maps each to a
 * status. Anything else that escapes a request is a bug (500).
 */

/** The thing asked for by id does not exist (an address, an area of some level, a building). */
export class NotFoundError extends Error {
  constructor(readonly what: string) {
    super(`${what} not found`);
  }
}

/** Elasticsearch unreachable, timing out, overloaded or without our indexes: the client should retry later. */
export class BackendUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The search backend is unavailable; retry later', { cause });
  }
}

/** A request that passed the schema but cannot be read as a query (e.g. a house number without digits). */
export class InvalidQueryError extends Error {
  constructor(
    /** The request field that cannot be read, as the contract names it ("number"). */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Too much Elasticsearch work already in flight and waiting: refused at once so the client can back off. */
export class OverloadedError extends Error {
  constructor() {
    super('The service is overloaded; retry later');
  }
}
