/**
 * The bulk load of derived documents (streets, places): built by the indexer from data it already accepted, so
 * Elasticsearch refusing one is a bug. It fails the run through the summary's checks (indexed != built) instead of
 * becoming a reject; the first refusals are logged.
 */
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { bulkLoad, type LoadItem } from '../execution/bulkLoader.js';
import type { RunContext } from '../execution/runContext.js';

/**
 * Returns the documents written without error, and those an update kept as the live generation holds them
 * (`untouched`: known to be as the live one, so neither digested nor sent: indexer/derived/untouchedDocuments.ts).
 */
export async function loadDerivedDocuments<D extends object>(
  ctx: RunContext,
  kind: IndexKind,
  items: AsyncIterable<LoadItem<D>>,
  untouched?: (doc: D) => boolean,
): Promise<number> {
  const refused: string[] = [];
  const writes = ctx.setup.writes;
  let kept = 0;
  async function* offered(): AsyncGenerator<LoadItem<D>> {
    for await (const item of items) {
      if (writes && untouched?.(item.doc) && writes.keep(kind, item.id)) kept++;
      else yield item;
    }
  }
  const loaded = await bulkLoad<D>({
    client: ctx.setup.client,
    index: ctx.index(kind),
    items: offered(),
    tuning: ctx.setup.tuning,
    onDrop: (drop) => {
      if (refused.length < 5) refused.push(`${drop.id}: HTTP ${drop.status} ${JSON.stringify(drop.error)}`);
    },
    onRetry: (attempt, error, waitMs) =>
      ctx.log.warn({ attempt, waitMs, error: (error as Error).message }, 'bulk request failed, retrying'),
    signal: ctx.setup.signal,
    select: ctx.setup.writes?.select(kind),
  });
  ctx.checkAbort();
  const result = ctx.setup.writes ? ctx.setup.writes.settle(kind, loaded) : loaded;
  if (kept) ctx.keptUntouched[kind] = (ctx.keptUntouched[kind] ?? 0) + kept;
  if (refused.length) ctx.log.error({ refused, kind }, `Elasticsearch refused ${kind} documents`);
  return result.sent - result.failed + kept;
}
