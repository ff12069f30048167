/**
 * How much Elasticsearch work a request caused: the searches it asked the batcher for (a batch item's tiers, each
 * free-text reading, each autocomplete round), counted in the request's own async context, so concurrent requests
 * sharing one `_msearch` are each charged their own searches.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<WorkMeter>();

/** The batcher's hook: one search for the request being handled (none outside a measured request). */
export function countSearch(): void {
  const meter = current.getStore();
  if (meter) meter.searches += 1;
}

/** The searches asked for by what ran inside `run`, read once it is done or has failed. */
export class WorkMeter {
  searches = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    return current.run(this, work);
  }
}
