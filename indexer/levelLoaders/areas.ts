/** Loads one area level from its file sources: parsed, merged by key, joined to parents, bulk-loaded. */
import { pointOnSurface } from '../geometry/checks.js';
import { AREA_LEVELS, type AreaLevelName } from '../base/levels.js';
import type { AreaSource } from '../manifest/manifestSources.js';
import { type AreaRecord, emptyAllParents } from '../records/records.js';
import { arrayItems, type RunContext } from '../execution/runContext.js';
import type { SourceItem } from '../sources/index.js';
import { areaFromFeature, mergeAreas, toAreaDoc, withTableNames } from '../transform/area.js';
import { readField } from '../transform/fields.js';
import { countRepairs } from '../execution/summary.js';
import { featureRecord } from './featureRecord.js';
import { CountryClaims } from './countryClaims.js';

export async function loadAreaLevel(ctx: RunContext, level: AreaLevelName): Promise<void> {
  const sources = (ctx.manifest.levels[level] ?? []) as (AreaSource | { format: 'derived' })[];
  if (sources.some((s) => s.format === 'derived')) ctx.hierarchy.markPending(level);
  const fileSources = sources.filter((s): s is AreaSource => s.format !== 'derived');
  if (!fileSources.length) return;
  ctx.initUnassigned(level);
  const s = ctx.levels[level];
  const byKey = new Map<string, { record: AreaRecord; origin: number; position: number }>();
  const claims = new CountryClaims(fileSources.map((f) => f.format === 'osm-pbf'));
  for (const [index, source] of fileSources.entries()) {
    const names = source.namesTable && { spec: source.namesTable, table: await ctx.lookups.names(source.namesTable) };
    for await (const { item, summary, origin } of ctx.records(level, source)) {
      // The repair of a boundary is the dear part of a level: kept for the next run (indexer/rows/derivationMemo.ts).
      const outcome = ctx.memoize('area', [level, item.props, item.geometry, source.fields], () =>
        areaFromFeature(level, item.props, item.geometry, source.fields),
      );
      if (!outcome.ok) {
        await ctx.reject(level, summary, item.position, outcome, featureRecord(item), { item });
        continue;
      }
      // Joined after the memo: its key does not hold the table's contents.
      const area = names ? withTableNames(outcome.value, item.props, names.spec, names.table) : outcome.value;
      const existing = byKey.get(area.key);
      s.indexed++;
      countRepairs(s, area.repairs);
      if (existing) {
        s.merged++;
        existing.record = mergeAreas(existing.record, area);
        continue;
      }
      const record = await resolveArea(ctx, level, source, area, item);
      if (!claims.claim(level, record, index)) {
        // An earlier source of this level already covers the area's country: that one wins (not an error).
        s.indexed--;
        s.read--;
        summary.read--;
        s.skipped++;
        summary.skipped++;
        continue;
      }
      byKey.set(record.key, { record, origin, position: item.position });
    }
  }
  const entries = [...byKey.values()];
  ctx.hierarchy.addAreaLevel(
    level,
    entries.map((e) => e.record),
  );
  await ctx.load(
    'areas',
    level,
    arrayItems(
      entries.map((e) => ({ id: e.record.id, doc: toAreaDoc(e.record), origin: e.origin, position: e.position })),
    ),
  );
  ctx.logLoaded(level);
}

async function resolveArea(
  ctx: RunContext,
  level: AreaLevelName,
  source: AreaSource,
  record: AreaRecord,
  item: SourceItem,
): Promise<AreaRecord> {
  const spec = source.parent ?? (level === 'countries' ? undefined : { by: 'spatial' as const });
  if (!spec) return ctx.hierarchy.completeArea(record, emptyAllParents());
  if (spec.by === 'spatial') {
    const [lon, lat] = pointOnSurface(record.geometry);
    const r = ctx.hierarchy.resolveSpatial(level, lon, lat);
    ctx.countUnassigned(level, r.unassigned);
    return ctx.hierarchy.completeArea(record, r.parents);
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: tsc reads the element as possibly undefined
  const parentLevel = spec.level ?? (AREA_LEVELS[AREA_LEVELS.indexOf(level) - 1] as AreaLevelName);
  let value = readField(item.props, spec.field);
  if (spec.lookup) value = (await ctx.lookups.get(spec.lookup)).get(value) ?? '';
  const r = ctx.hierarchy.resolveByCode(parentLevel, spec.parentField, value);
  ctx.countUnassigned(level, r.unassigned);
  return ctx.hierarchy.completeArea(record, r.parents);
}
