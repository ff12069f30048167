/**
 * Writes the places (indexer/derived/placeDocuments.ts) into this generation's places index, once every area, address and street
 * is loaded. Places are derived data (derivedDocuments.ts): a refused one fails the run through verifyPlaces.
 */
import type { PlaceDoc } from '../../core/elasticsearch/documents.js';
import { buildPlaces } from '../derived/placeDocuments.js';
import type { RunContext } from '../execution/runContext.js';
import { derivedItems, loadDerivedDocuments } from './derivedDocuments.js';

export async function loadPlaces(ctx: RunContext): Promise<void> {
  ctx.checkAbort();
  const p = ctx.places;
  const count = (type: PlaceDoc['type']) => {
    p.built++;
    p.byType[type] = (p.byType[type] ?? 0) + 1;
  };
  // An update's places no address change reached: kept as the live generation holds them, not even built.
  const untouched = ctx.untouched;
  const docs = buildPlaces({
    areas: ctx.hierarchy.areas(),
    points: ctx.pointPlaces,
    streets: ctx.builtStreets,
    accumulator: ctx.placeAccumulator,
    area: (id) => (id ? ctx.hierarchy.area(id) : undefined),
    ...(untouched && {
      kept: (place) => {
        if (!untouched.place(place) || !ctx.keepUntouched('places', place.id)) return false;
        count(place.type);
        return true;
      },
    }),
  });
  const items = derivedItems(docs, (doc) => {
    count(doc.type);
    return { id: doc.id, doc, origin: 0, position: p.built };
  });
  p.indexed = await loadDerivedDocuments(ctx, 'places', items);
  ctx.log.info({ dataset_level: 'places', built: p.built, indexed: p.indexed, by_type: p.byType }, 'places loaded');
}
