/**
 * Writes the streets accumulated while the addresses streamed (indexer/derived/streetDocuments.ts) into this generation's streets
 * index. Streets are derived data (derivedDocuments.ts): a refused one fails the run through verifyStreets.
 */
import type { StreetDoc } from '../../core/elasticsearch/documents.js';
import type { CityRemap } from '../derived/derivedCities.js';
import type { RunContext } from '../execution/runContext.js';
import { derivedItems, loadDerivedDocuments } from './derivedDocuments.js';
import type { StreetAccumulator } from '../derived/streetDocuments.js';

/**
 * Returns the streets as the places read them: made anew from the accumulator as they are read, so no reading holds
 * every street document at once.
 */
export async function loadStreets(
  ctx: RunContext,
  streets: StreetAccumulator,
  remap?: CityRemap,
): Promise<Iterable<StreetDoc>> {
  ctx.checkAbort();
  const untouched = ctx.untouched;
  const docs = streets.reader(remap);
  const s = ctx.streets;
  s.built = 0;
  s.addresses = streets.addresses;
  s.indexed = await loadDerivedDocuments<StreetDoc>(
    ctx,
    'streets',
    derivedItems(docs, (doc) => ({ id: doc.id, doc, origin: 0, position: ++s.built })),
    untouched && ((doc) => untouched.street(doc)),
  );
  ctx.log.info(
    { dataset_level: 'streets', built: s.built, indexed: s.indexed, addresses: s.addresses },
    'streets loaded',
  );
  return docs;
}
