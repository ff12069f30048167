/**
 * Coalesces the searches that concurrent API requests issue in the same event-loop turn into one `_msearch`.
 *
 * Why: on the measured machine one loopback hop is most of the API's cost (a bare node:http + undici forwarder
 * spends 0.13-0.21 ms of CPU per request, the whole API 0.21-0.28 ms) and Elasticsearch pays its own per-request
 * HTTP cost again. Under load, requests arrive in bursts; sending a burst as one `_msearch` pays those costs
 * once per burst. A search waits for nothing: the batch is sent at the end of the turn in which it was queued
 * (setImmediate), so a lone request goes out at once as a plain `_search`, exactly as without batching.
 *
 * An `_msearch` answers when its slowest search is done, so searches travel in lanes: the fuzzy tiers (a
 * two-edit search costs Elasticsearch 2-3 ms on the bulk data) never share a batch with exact lookups.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { asDomainError, msearchFailure } from './failures.js';

export type Lane = 'exact' | 'fuzzy';

/** What repositories search through: the batcher in the API. */
export interface Searcher {
  search<T>(index: string, body: estypes.SearchRequest, lane?: Lane): Promise<estypes.SearchResponse<T>>;
}

/** What the batcher tells a trace (SEARCH_TRACE, src/http/searchTrace.ts) of one search once it is answered. */
export interface SearchDone {
  index: string;
  /** performance.now() when its round trip was sent. */
  sentAt: number;
  /** Searches in that round trip. */
  batch: number;
  took: number | undefined;
}

/** Told when a traced search is answered. */
export type SearchRecorder = (done: SearchDone) => void;

interface Pending {
  index: string;
  body: estypes.SearchRequest;
  resolve: (response: estypes.SearchResponse<unknown>) => void;
  reject: (error: unknown) => void;
  /** SEARCH_TRACE only: told when the search is answered. */
  record: SearchRecorder | undefined;
}

export class SearchBatcher implements Searcher {
  private readonly queues: Record<Lane, Pending[]> = { exact: [], fuzzy: [] };
  private scheduled = false;

  /**
   * @param maxBatch searches per `_msearch`: bounds how long a fast search can wait behind slow ones in one batch.
   * @param observeBatch told the number of searches of every round trip it sends (for /metrics).
   * @param onSearch told of every search when it is asked for, in the asking request's context (per-key quotas); it
   *   may give back a recorder of the search's answer (SEARCH_TRACE).
   */
  constructor(
    private readonly client: Client,
    private readonly maxBatch: number,
    private readonly observeBatch: (searches: number) => void = () => {},
    private readonly onSearch: () => SearchRecorder | void = () => {},
  ) {}

  search<T>(index: string, body: estypes.SearchRequest, lane: Lane = 'exact'): Promise<estypes.SearchResponse<T>> {
    const record = this.onSearch() ?? undefined;
    if (this.maxBatch <= 1) {
      this.observeBatch(1);
      const sentAt = performance.now();
      const answer = this.client.search<T>({ ...body, index }).catch(rethrowAsDomainError);
      return record ? answer.then((res) => (record({ index, sentAt, batch: 1, took: res.took }), res)) : answer;
    }
    return new Promise<estypes.SearchResponse<T>>((resolve, reject) => {
      const queue = this.queues[lane];
      queue.push({ index, body, resolve: resolve as Pending['resolve'], reject, record });
      if (queue.length >= this.maxBatch) this.flush(lane);
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush('exact');
          this.flush('fuzzy');
        });
      }
    });
  }

  private flush(lane: Lane): void {
    const batch = this.queues[lane];
    if (batch.length === 0) return;
    this.queues[lane] = [];
    this.observeBatch(batch.length);
    const sentAt = performance.now();
    const answer = (pending: Pending, res: estypes.SearchResponse<unknown>) => {
      pending.record?.({ index: pending.index, sentAt, batch: batch.length, took: res.took });
      pending.resolve(res);
    };
    if (batch.length === 1) {
      const [only] = batch as [Pending];
      this.client.search({ ...only.body, index: only.index }).then(
        (res) => answer(only, res),
        (error) => only.reject(asDomainError(error)),
      );
      return;
    }
    this.client
      .msearch({
        max_concurrent_searches: batch.length,
        searches: batch.flatMap(({ index, body }) => [{ index }, body]),
      })
      .then(
        (res) =>
          batch.forEach((pending, i) => {
            const item = res.responses[i];
            if (!item) pending.reject(new Error('msearch answered fewer searches than it was sent'));
            else if ('error' in item) pending.reject(msearchFailure(item));
            else answer(pending, item);
          }),
        (error) => {
          const failure = asDomainError(error);
          for (const pending of batch) pending.reject(failure);
        },
      );
  }
}

function rethrowAsDomainError(error: unknown): never {
  throw asDomainError(error);
}

/** Several searches on one index, sent in the same turn so a batcher can carry them in one round trip. */
export function searchEach<T>(
  searcher: Searcher,
  index: string,
  bodies: estypes.SearchRequest[],
  lane: Lane = 'exact',
): Promise<estypes.SearchResponse<T>[]> {
  return Promise.all(bodies.map((body) => searcher.search<T>(index, body, lane)));
}
