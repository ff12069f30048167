/**
 * SEARCH_TRACE (a debug switch, off by default): every answer carries an `X-Search-Trace` header telling what the
 * request waited for, so a load probe can tell which kinds of request make its slowest percent
 * (bench/probes/tailProbe.ts `--trace`). Each search the request asked the batcher for is recorded in the request's
 * own async context (as workMeter.ts counts them) with the moments it was asked, sent and answered, Elasticsearch's
 * `took` and the size of the round trip it travelled in.
 *
 * Header: `ms=<request time in the API>` then `;<index>:<asked>/<sent>/<answered>/<took>/<batch>` per search (ms after
 * the request reached this middleware, the index's alias without its prefix).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';
import type { SearchDone, SearchRecorder } from '../elasticsearch/searchBatcher.js';

export const SEARCH_TRACE_HEADER = 'X-Search-Trace';

const current = new AsyncLocalStorage<SearchTrace>();

class SearchTrace {
  readonly start = performance.now();
  private readonly parts: string[] = [];

  record(askedAt: number, done: SearchDone): void {
    const at = (t: number) => (t - this.start).toFixed(2);
    const index = done.index.slice(done.index.lastIndexOf('-') + 1);
    this.parts.push(
      `${index}:${at(askedAt)}/${at(done.sentAt)}/${at(performance.now())}/${done.took ?? ''}/${done.batch}`,
    );
  }

  header(): string {
    return [`ms=${(performance.now() - this.start).toFixed(2)}`, ...this.parts].join(';');
  }
}

/** The batcher's hook: a recorder for the search being asked for in a traced request. */
export function traceSearch(): SearchRecorder | undefined {
  const trace = current.getStore();
  if (!trace) return undefined;
  const askedAt = performance.now();
  return (done) => trace.record(askedAt, done);
}

/** The middleware: runs the rest of the request in a trace and writes it into the answer's header. */
export function searchTrace(): Koa.Middleware {
  return async (ctx, next) => {
    const trace = new SearchTrace();
    try {
      await current.run(trace, next);
    } finally {
      if (!ctx.headerSent) ctx.set(SEARCH_TRACE_HEADER, trace.header());
    }
  };
}
