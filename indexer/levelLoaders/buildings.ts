/** Loads the buildings: parsed, deduplicated by key, joined to their areas, bulk-loaded. */
import type { BuildingRecord, Parents } from '../records/records.js';
import { arrayItems, type RunContext } from '../execution/runContext.js';
import { buildingFromFeature, toBuildingDoc } from '../transform/building.js';
import { countRepairs } from '../execution/summary.js';
import { featureRecord } from './featureRecord.js';

export async function loadBuildings(ctx: RunContext): Promise<void> {
  const sources = ctx.manifest.levels.buildings ?? [];
  if (!sources.length) return;
  ctx.initUnassigned('buildings');
  const s = ctx.levels.buildings;
  const byKey = new Map<string, { record: BuildingRecord; parents: Parents; origin: number; position: number }>();
  for (const source of sources) {
    for await (const { item, summary, origin } of ctx.records('buildings', source)) {
      const outcome = buildingFromFeature(item.props, item.geometry, source.fields);
      if (!outcome.ok) {
        await ctx.reject('buildings', summary, item.position, outcome, featureRecord(item), { item });
        continue;
      }
      s.indexed++;
      countRepairs(s, outcome.value.repairs);
      if (byKey.has(outcome.value.sourceKey)) {
        // A building mapped twice under one BAG id: keep the first footprint.
        s.merged++;
        continue;
      }
      const [lon, lat] = outcome.value.anchor;
      const r = ctx.hierarchy.resolveSpatial('buildings', lon, lat);
      ctx.countUnassigned('buildings', r.unassigned);
      byKey.set(outcome.value.sourceKey, {
        record: outcome.value,
        parents: r.parents,
        origin,
        position: item.position,
      });
    }
  }
  const entries = [...byKey.values()];
  ctx.hierarchy.setBuildings(entries.map((e) => e.record));
  await ctx.load(
    'buildings',
    'buildings',
    arrayItems(
      entries.map((e) => ({
        id: e.record.id,
        doc: toBuildingDoc(e.record, e.parents),
        origin: e.origin,
        position: e.position,
      })),
    ),
  );
  ctx.logLoaded('buildings');
}
