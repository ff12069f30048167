/** Reads back how many documents of each level the new indexes hold, once they are refreshed. */
import { AREA_LEVEL_VALUE, AREA_LEVELS } from '../base/levels.js';
import type { RunContext } from '../execution/runContext.js';

export async function countDocuments(ctx: RunContext): Promise<void> {
  const { client } = ctx.setup;
  for (const level of AREA_LEVELS) {
    const res = await client.count({
      index: ctx.index('areas'),
      query: { term: { level: AREA_LEVEL_VALUE[level] } },
    });
    ctx.levels[level].count = res.count;
  }
  ctx.levels.buildings.count = (await client.count({ index: ctx.index('buildings') })).count;
  // Never derive `merged` from this count: `_count = indexed − merged` is the check that a document went missing.
  ctx.levels.addresses.count = (await client.count({ index: ctx.index('addresses') })).count;
  const streets = await client.search({
    index: ctx.index('streets'),
    size: 0,
    track_total_hits: true,
    aggs: { addresses: { sum: { field: 'address_count' } } },
  });
  const total = streets.hits.total;
  ctx.streets.count = typeof total === 'number' ? total : (total?.value ?? 0);
  ctx.streets.addressCountSum = (streets.aggregations?.addresses as { value?: number } | undefined)?.value ?? 0;
  ctx.places.count = (await client.count({ index: ctx.index('places') })).count;
}
