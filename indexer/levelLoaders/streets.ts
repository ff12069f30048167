/**
 * Writes the streets accumulated while the addresses streamed (indexer/derived/streetDocuments.ts) into this generation's streets
 * index. Streets are derived data (derivedDocuments.ts): a refused one fails the run through verifyStreets.
 */
import type { StreetDoc } from '../../core/elasticsearch/documents.js';
import type { CityRemap } from '../derived/derivedCities.js';
import { arrayItems, type RunContext } from '../execution/runContext.js';
import { loadDerivedDocuments } from './derivedDocuments.js';
import type { StreetAccumulator } from '../derived/streetDocuments.js';

/** Returns the documents written (the places are built from them). */
export async function loadStreets(
  ctx: RunContext,
  streets: StreetAccumulator,
  remap?: CityRemap,
): Promise<StreetDoc[]> {
  ctx.checkAbort();
  const untouched = ctx.untouched;
  const docs = streets.finish(remap);
  const s = ctx.streets;
  s.built = docs.length;
  s.addresses = streets.addresses;
  s.indexed = await loadDerivedDocuments<StreetDoc>(
    ctx,
    'streets',
    arrayItems(docs.map((doc, i) => ({ id: doc.id, doc, origin: 0, position: i + 1 }))),
    untouched && ((doc) => untouched.street(doc)),
  );
  ctx.log.info(
    { dataset_level: 'streets', built: s.built, indexed: s.indexed, addresses: s.addresses },
    'streets loaded',
  );
  return docs;
}
