/**
 * Writes the streets accumulated while the addresses streamed (indexer/streets.ts) into this generation's streets
 * index. Streets are derived data: Elasticsearch refusing one is a bug, so it fails the run (verifyStreets)
 * instead of becoming a reject.
 */
import type { StreetDoc } from '../../src/elasticsearch/documents.js';
import { bulkLoad } from '../bulkLoader.js';
import type { CityRemap } from '../derivedCities.js';
import { arrayItems, type RunContext } from '../runContext.js';
import type { StreetAccumulator } from '../streets.js';

/** Returns the documents written (the places are built from them). */
export async function loadStreets(
  ctx: RunContext,
  streets: StreetAccumulator,
  remap?: CityRemap,
): Promise<StreetDoc[]> {
  ctx.checkAbort();
  const docs = streets.finish(remap);
  const s = ctx.streets;
  s.built = docs.length;
  s.addresses = streets.addresses;
  const refused: string[] = [];
  const result = await bulkLoad<StreetDoc>({
    client: ctx.setup.client,
    index: ctx.index('streets'),
    items: arrayItems(docs.map((doc, i) => ({ id: doc.id, doc, origin: 0, position: i + 1 }))),
    tuning: ctx.setup.tuning,
    onDrop: (drop) => {
      if (refused.length < 5) refused.push(`${drop.id}: HTTP ${drop.status} ${JSON.stringify(drop.error)}`);
    },
    onRetry: (attempt, error, waitMs) =>
      ctx.log.warn({ attempt, waitMs, error: (error as Error).message }, 'bulk request failed, retrying'),
    signal: ctx.setup.signal,
  });
  ctx.checkAbort();
  s.indexed = result.sent - result.failed;
  if (refused.length) ctx.log.error({ refused }, 'Elasticsearch refused street documents');
  ctx.log.info(
    { dataset_level: 'streets', built: s.built, indexed: s.indexed, addresses: s.addresses },
    'streets loaded',
  );
  return docs;
}
