/**
 * Streams documents into one index with the client's bulk helper. Per-document 429s are retried by
 * the helper; whole-request failures (429/502/503/504, connection resets, timeouts) are retried here
 * with exponential backoff, because the transport retries 503 immediately and the helper not at all.
 */
import type { Client } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import { withContentDigest } from '../base/contentDigest.js';
import { RecentOrigins } from './recentOrigins.js';

export interface BulkTuning {
  /** Bytes of NDJSON per request; ~5 MB measured best on a single node (see bench:index). */
  flushBytes: number;
  concurrency: number;
  /** Per-document 429 retries inside the helper, and the wait between them. */
  retries: number;
  waitMs: number;
  /** Whole-request retries with backoff. */
  requestRetries: number;
  requestTimeoutMs: number;
}

export const DEFAULT_TUNING: BulkTuning = {
  flushBytes: 5_000_000,
  concurrency: 3,
  retries: 5,
  waitMs: 1_000,
  requestRetries: 6,
  requestTimeoutMs: 120_000,
};

export interface LoadItem<D> {
  id: string;
  doc: D;
  /** Where the record came from, so a document Elasticsearch refuses can be traced to its line. */
  origin: number;
  position: number;
  /**
   * External version: when several documents share an _id, Elasticsearch keeps the highest version
   * and answers 409 to the others, whatever order concurrent requests arrive in.
   */
  version?: number;
  /** Its row in the run's row cache (indexer/rows/), which learns the document's digest as it is sent. */
  row?: number;
}

export interface DroppedDocument {
  id: string;
  status: number;
  error: unknown;
  document: unknown;
  origin: number | undefined;
  position: number | undefined;
}

export interface LoadResult {
  sent: number;
  failed: number;
  /**
   * Versioned documents that lost to a higher external version of the same _id (a merge, not a failure), in
   * either arrival order: the lower version arriving second (refused with 409) or written first and then
   * replaced by the higher one (the higher one's bulk result is "updated" instead of "created"). Counted from
   * what Elasticsearch answered, so `_count = sent − failed − superseded` is an independent check on the load.
   */
  superseded: number;
  /** Documents actually sent to Elasticsearch (`sent` minus those the selector kept back). */
  written: number;
  bytes: number;
  timeMs: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export function isRetryableRequestError(error: unknown): boolean {
  if (error instanceof errors.ResponseError) return RETRYABLE_STATUS.has(error.meta.statusCode ?? 0);
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError;
}

/** Exponential backoff with full jitter, capped: spreads retries of concurrent requests apart. */
export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function withRequestRetries(
  bulk: (params: unknown, options: unknown) => Promise<unknown>,
  retries: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  onRetry?: (attempt: number, error: unknown, waitMs: number) => void,
): (params: unknown, options: unknown) => Promise<unknown> {
  return async (params, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await bulk(params, options);
      } catch (error) {
        if (attempt >= retries || !isRetryableRequestError(error)) throw error;
        const wait = backoffMs(attempt);
        onRetry?.(attempt + 1, error, wait);
        await sleep(wait);
      }
    }
  };
}

/**
 * A 409 saying the stored version equals the one sent is this very document, already written by an earlier try
 * of a request retried after a timeout or 502/503 that Elasticsearch had applied anyway: neither a merge nor a
 * failure. (Every document of a load has its own version, so no other document can hold it.)
 */
export function isOwnEarlierWrite(error: unknown, version: number): boolean {
  const reason = (error as { reason?: string } | null)?.reason ?? '';
  const current = /current version \[(\d+)\]/.exec(reason)?.[1];
  return current !== undefined && Number(current) === version;
}

/**
 * The items of one `_bulk` answer (the helper asks with `meta: true`: the body is under `body`) whose result is
 * "updated". Counted here, from the answer, instead of in the helper's `onSuccess`: given an `onSuccess`, the
 * helper parses every document it sent back from its JSON to hand it over (5-8 % of the address phase's main
 * thread and a document's worth of garbage per row, for a field the count never reads).
 */
export function updatedItems(response: unknown): number {
  const items = (response as { body?: { items?: Record<string, { result?: string }>[] } } | null)?.body?.items;
  let n = 0;
  for (const item of items ?? []) if (item.index?.result === 'updated') n++;
  return n;
}

export interface BulkLoadOptions<D> {
  client: Client;
  index: string;
  items: AsyncIterable<LoadItem<D>>;
  tuning?: Partial<BulkTuning>;
  onDrop: (drop: DroppedDocument) => void;
  onRetry?: (attempt: number, error: unknown, waitMs: number) => void;
  signal?: AbortSignal | undefined;
  /**
   * Which documents to send (`update`, indexer/update/): given each one and its content digest, the version to send
   * it with, or false to keep it back (counted in `sent`, not in `written`). Unset: every one, as is.
   */
  select?: (item: LoadItem<D>, digest: string) => number | undefined | false;
  /** Told each document's content digest, before `select`. */
  digested?: ((item: LoadItem<D>, digest: string) => void) | undefined;
}

interface Outgoing<D> {
  item: LoadItem<D>;
  /** The document's JSON with its content digest. */
  json: string;
  version: number | undefined;
}

/** What a load counts as it goes: documents offered and sent, and what the versions' 409s and "updated"s said. */
interface LoadCounts {
  sent: number;
  written: number;
  /** 409s of a lower external version: merged into a higher one of the same _id. */
  refused: number;
  /** "updated" results under external versions: the one replaced is merged. */
  replaced: number;
  /** 409s of this very document written by an earlier try (isOwnEarlierWrite). */
  rewritten: number;
  versioned: boolean;
}

export async function bulkLoad<D extends object>(options: BulkLoadOptions<D>): Promise<LoadResult> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const started = Date.now();
  const counts: LoadCounts = { sent: 0, written: 0, refused: 0, replaced: 0, rewritten: 0, versioned: false };
  const child = retryingClient(options.client, tuning, counts, options.onRetry);
  // Enough for every document of every request in flight plus the one being assembled (no indexed
  // document is smaller than ~250 bytes of NDJSON).
  const origins = new RecentOrigins(Math.ceil(((tuning.concurrency + 2) * tuning.flushBytes) / 250));
  const signal = options.signal;
  const helper = child.helpers.bulk<Outgoing<D>>(
    {
      datasource: outgoing(options, counts, origins),
      onDocument: ({ item, json, version }) => [bulkAction(options.index, item.id, version), json] as never,
      onDrop: (drop) => dropped(drop, options, counts, origins),
      flushBytes: tuning.flushBytes,
      concurrency: tuning.concurrency,
      retries: tuning.retries,
      wait: tuning.waitMs,
      refreshOnCompletion: false,
      // The helper only reads each item's status and error, and we its result (created or updated); the rest of
      // a 10k-item response (index name, version, shard info...) is megabytes of garbage per request.
      filter_path: 'errors,items.*.status,items.*.error,items.*.result',
    },
    { requestTimeout: tuning.requestTimeoutMs },
  );
  const abort = () => void helper.abort();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const stats = await helper;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    return {
      sent: counts.sent,
      failed: stats.failed - counts.refused - counts.rewritten,
      superseded: counts.refused + counts.replaced,
      written: counts.written,
      bytes: stats.bytes,
      timeMs: Date.now() - started,
    };
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

/** A child of the client (it shares the connection pool) whose `bulk`, which the helper calls, backs off and retries. */
function retryingClient(
  client: Client,
  tuning: BulkTuning,
  counts: LoadCounts,
  onRetry: BulkLoadOptions<object>['onRetry'],
): Client {
  const child = client.child({});
  const rawBulk = client.bulk.bind(client) as unknown as (p: unknown, o: unknown) => Promise<unknown>;
  (child as { bulk: unknown }).bulk = withRequestRetries(
    async (params, reqOptions) => {
      const response = await rawBulk(params, { ...(reqOptions as object), maxRetries: 0 });
      // Only a higher external version replaces a document in a fresh index: the one it replaced is merged.
      if (counts.versioned) counts.replaced += updatedItems(response);
      return response;
    },
    tuning.requestRetries,
    undefined,
    onRetry,
  );
  return child;
}

/** The documents to send, each with its digest and version; those `select` keeps back are counted, not sent. */
async function* outgoing<D extends object>(
  options: BulkLoadOptions<D>,
  counts: LoadCounts,
  origins: RecentOrigins,
): AsyncGenerator<Outgoing<D>> {
  const { signal, select } = options;
  for await (const item of options.items) {
    if (signal?.aborted) return;
    if (item.version !== undefined) counts.versioned = true;
    counts.sent++;
    const { json, digest } = withContentDigest(item.doc);
    options.digested?.(item, digest);
    let version = item.version;
    if (select) {
      const chosen = select(item, digest);
      if (chosen === false) continue;
      version = chosen;
    }
    origins.remember(item.id, item.origin, item.position);
    counts.written++;
    yield { item, json, version };
  }
}

function bulkAction(index: string, id: string, version: number | undefined) {
  return version === undefined
    ? { index: { _index: index, _id: id } }
    : { index: { _index: index, _id: id, version, version_type: 'external' as const } };
}

/** A document the helper gave up on: a version's 409 is a merge (or this very write, retried), anything else a drop. */
function dropped<D>(
  drop: { operation: unknown; status: number; error: unknown; document: unknown },
  options: BulkLoadOptions<D>,
  counts: LoadCounts,
  origins: RecentOrigins,
): void {
  const operation = drop.operation as { index?: { _id?: string; version?: number } };
  if (drop.status === 409 && operation.index?.version !== undefined) {
    if (isOwnEarlierWrite(drop.error, operation.index.version)) counts.rewritten++;
    else counts.refused++;
    return;
  }
  const id = String(operation.index?._id ?? '');
  const origin = origins.lookup(id);
  options.onDrop({
    id,
    status: drop.status,
    error: drop.error,
    document: drop.document,
    origin: origin?.[0],
    position: origin?.[1],
  });
}
