/**
 * Writes the places (indexer/places.ts) into this generation's places index, once every area, address and street
 * is loaded. Places are derived data: Elasticsearch refusing one is a bug, so it fails the run (verifyPlaces)
 * instead of becoming a reject.
 */
import type { PlaceDoc } from '../../src/elasticsearch/documents.js';
import { bulkLoad, type LoadItem } from '../bulkLoader.js';
import { buildPlaces } from '../places.js';
import type { RunContext } from '../runContext.js';

export async function loadPlaces(ctx: RunContext): Promise<void> {
  ctx.checkAbort();
  const p = ctx.places;
  const docs = buildPlaces({
    areas: ctx.hierarchy.areas(),
    streets: ctx.builtStreets,
    accumulator: ctx.placeAccumulator,
    area: (id) => (id ? ctx.hierarchy.area(id) : undefined),
  });
  async function* items(): AsyncGenerator<LoadItem<PlaceDoc>> {
    for (const doc of docs) {
      p.built++;
      p.byType[doc.type] = (p.byType[doc.type] ?? 0) + 1;
      yield { id: doc.id, doc, origin: 0, position: p.built };
    }
  }
  const refused: string[] = [];
  const result = await bulkLoad<PlaceDoc>({
    client: ctx.setup.client,
    index: ctx.index('places'),
    items: items(),
    tuning: ctx.setup.tuning,
    onDrop: (drop) => {
      if (refused.length < 5) refused.push(`${drop.id}: HTTP ${drop.status} ${JSON.stringify(drop.error)}`);
    },
    onRetry: (attempt, error, waitMs) =>
      ctx.log.warn({ attempt, waitMs, error: (error as Error).message }, 'bulk request failed, retrying'),
    signal: ctx.setup.signal,
  });
  ctx.checkAbort();
  p.indexed = result.sent - result.failed;
  if (refused.length) ctx.log.error({ refused }, 'Elasticsearch refused place documents');
  ctx.log.info({ dataset_level: 'places', built: p.built, indexed: p.indexed, by_type: p.byType }, 'places loaded');
}
