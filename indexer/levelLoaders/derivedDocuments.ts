/**
 * The bulk load of derived documents (streets, places): built by the indexer from data it already accepted, so
 * Elasticsearch refusing one is a bug. It fails the run through the summary's checks (indexed != built) instead of
 * becoming a reject; the first refusals are logged.
 */
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { bulkLoad, type LoadItem } from '../execution/bulkLoader.js';
import type { RunContext } from '../execution/runContext.js';

/** Documents made in memory as the loaders' items, each made as the load asks for the next. */
// eslint-disable-next-line @typescript-eslint/require-await -- an AsyncIterable over values in memory, for the loaders
export async function* derivedItems<D>(docs: Iterable<D>, item: (doc: D) => LoadItem<D>): AsyncGenerator<LoadItem<D>> {
  for (const doc of docs) yield item(doc);
}

/**
 * Returns the documents written without error, and those an update kept as the live generation holds them
 * (`untouched`, or kept by the items themselves: as the live one, neither digested nor sent: ctx.keepUntouched).
 */
export async function loadDerivedDocuments<D extends object>(
  ctx: RunContext,
  kind: IndexKind,
  items: AsyncIterable<LoadItem<D>>,
  untouched?: (doc: D) => boolean,
): Promise<number> {
  const refused: string[] = [];
  async function* offered(): AsyncGenerator<LoadItem<D>> {
    for await (const item of items) if (!(untouched?.(item.doc) && ctx.keepUntouched(kind, item.id))) yield item;
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
    select: ctx.writePolicy?.select(kind),
  });
  ctx.checkAbort();
  const result = ctx.writePolicy ? ctx.writePolicy.settle(kind, loaded) : loaded;
  if (refused.length) ctx.log.error({ refused, kind }, `Elasticsearch refused ${kind} documents`);
  // The documents kept untouched are the live ones: indexed as a full run would have them (this load's, or its items').
  return result.sent - result.failed + (ctx.keptUntouched[kind] ?? 0);
}
