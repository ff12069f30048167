/**
 * Writes the places (indexer/derived/placeDocuments.ts) into this generation's places index, once every area, address and street
 * is loaded. Places are derived data (derivedDocuments.ts): a refused one fails the run through verifyPlaces.
 */
import type { PlaceDoc } from '../../core/elasticsearch/documents.js';
import type { LoadItem } from '../execution/bulkLoader.js';
import { buildPlaces } from '../derived/placeDocuments.js';
import type { RunContext } from '../execution/runContext.js';
import { loadDerivedDocuments } from './derivedDocuments.js';

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
  const untouched = ctx.untouched;
  p.indexed = await loadDerivedDocuments(ctx, 'places', items(), untouched && ((doc) => untouched.place(doc)));
  ctx.log.info({ dataset_level: 'places', built: p.built, indexed: p.indexed, by_type: p.byType }, 'places loaded');
}
