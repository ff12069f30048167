/**
 * Streams the addresses into their index, each joined to its parents on the way; the cities derived
 * from their city names (where the manifest asks for it) are loaded once the stream has ended.
 */
import type { AddressDoc } from '../../src/elasticsearch/documents.js';
import type { LoadItem } from '../bulkLoader.js';
import { DerivedCities } from '../hierarchy.js';
import { ancestorLevels } from '../levels.js';
import { mergePriority } from '../mergePriority.js';
import { emptyAllParents } from '../records.js';
import { arrayItems, type RunContext } from '../runContext.js';
import { addressFromRecord } from '../transform/address.js';
import { toAreaDoc } from '../transform/area.js';

export async function loadAddresses(ctx: RunContext): Promise<void> {
  const sources = ctx.manifest.levels.addresses ?? [];
  const deriveCities = (ctx.manifest.levels.cities ?? []).some((c) => c.format === 'derived');
  const derived = deriveCities ? new DerivedCities(ctx.hierarchy) : undefined;
  if (!sources.length) return;
  ctx.initUnassigned('addresses');
  const s = ctx.levels.addresses;
  const levels = ancestorLevels('addresses');
  let sequence = 0;
  async function* items(): AsyncGenerator<LoadItem<AddressDoc>> {
    for (const source of sources) {
      for await (const { item, summary, origin } of ctx.records('addresses', source)) {
        const outcome = addressFromRecord(item.props, item.geometry, source.fields);
        if (!outcome.ok) {
          const record = item.geometry ? { properties: item.props, geometry: item.geometry } : item.props;
          await ctx.reject('addresses', summary, item.position, outcome, record);
          continue;
        }
        const doc = outcome.value;
        const parents = ctx.hierarchy.resolveSpatialParents('addresses', doc.location.lon, doc.location.lat);
        derived?.assign(doc.city, doc.location, parents);
        ctx.countUnassigned('addresses', ctx.hierarchy.unassigned(levels, parents));
        doc.country_id = parents.country_id;
        doc.province_id = parents.province_id;
        doc.municipality_id = parents.municipality_id;
        doc.city_id = parents.city_id;
        doc.suburb_id = parents.suburb_id;
        doc.building_id = parents.building_id;
        yield { id: doc.id, doc, origin, position: item.position, version: mergePriority(parents, sequence++) };
      }
    }
  }
  const addressStart = Date.now();
  const result = await ctx.load('addresses', 'addresses', items(), false);
  ctx.addressMs = Date.now() - addressStart;
  s.indexed = result.sent - result.failed;
  ctx.logLoaded('addresses');
  if (derived) await loadDerivedCities(ctx, derived);
}

async function loadDerivedCities(ctx: RunContext, derived: DerivedCities): Promise<void> {
  const cities = derived.records();
  const c = ctx.levels.cities;
  ctx.initUnassigned('cities');
  for (const city of cities) {
    ctx.countUnassigned(
      'cities',
      ctx.hierarchy.unassigned(ancestorLevels('cities'), { ...emptyAllParents(), ...city.parents }),
    );
  }
  c.read = cities.length;
  const { summary, origin } = ctx.addSource('cities', 'derived from addresses');
  summary.read = cities.length;
  ctx.hierarchy.addAreaLevel('cities', cities);
  const r = await ctx.load(
    'areas',
    'cities',
    arrayItems(cities.map((city, i) => ({ id: city.id, doc: toAreaDoc(city), origin, position: i + 1 }))),
    false,
  );
  c.indexed = r.sent - r.failed;
  ctx.logLoaded('cities', { derived: true });
}
