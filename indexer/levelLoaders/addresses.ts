/**
 * Streams the addresses into their index, each joined to its parents on the way; the cities derived
 * from their city names (where the manifest asks for it) are loaded once the stream has ended, then the
 * streets accumulated on the way (indexer/derived/streetDocuments.ts).
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { LoadItem } from '../execution/bulkLoader.js';
import { type CityRemap, DerivedCities } from '../derived/derivedCities.js';
import { ancestorLevels } from '../records/levels.js';
import { mergePriority } from '../records/mergePriority.js';
import { emptyAllParents, type Parents } from '../records/records.js';
import { type Properties, readField } from '../transform/fields.js';
import { arrayItems, type RunContext } from '../execution/runContext.js';
import { addressFromRecord } from '../transform/address.js';
import { countRepairs } from '../execution/summary.js';
import { toAreaDoc } from '../transform/area.js';
import { remapAddressCities } from './cityRemap.js';
import { StreetAccumulator } from '../derived/streetDocuments.js';
import { loadStreets } from './streets.js';
import type { AddressSource } from '../manifest/manifestSources.js';
import { readCsvTable } from '../sources/csv.js';
import { applyStreetNames, StreetNameTable } from '../derived/streetNames.js';

export async function loadAddresses(ctx: RunContext): Promise<void> {
  const sources = ctx.manifest.levels.addresses ?? [];
  const deriveCities = (ctx.manifest.levels.cities ?? []).some((c) => c.format === 'derived');
  const derived = deriveCities ? new DerivedCities(ctx.hierarchy) : undefined;
  if (!sources.length) return;
  const streets = new StreetAccumulator();
  ctx.initUnassigned('addresses');
  const s = ctx.levels.addresses;
  const levels = ancestorLevels('addresses');
  let sequence = 0;
  async function* items(): AsyncGenerator<LoadItem<AddressDoc>> {
    for (const source of sources) {
      const streetNames = await readStreetNames(source);
      const parentsOf = await addressParents(ctx, source);
      for await (const { item, summary, origin } of ctx.records('addresses', source)) {
        const outcome = addressFromRecord(item.props, item.geometry, source.fields);
        if (!outcome.ok) {
          const record = item.geometry ? { properties: item.props, geometry: item.geometry } : item.props;
          await ctx.reject('addresses', summary, item.position, outcome, record);
          continue;
        }
        const doc = outcome.value;
        if (streetNames) {
          const entry = streetNames.join(item.props, doc.street_key);
          if (entry) {
            applyStreetNames(doc, entry);
            summary.streetNamesJoined = (summary.streetNamesJoined ?? 0) + 1;
          }
        }
        const parents = parentsOf(item.props, doc.location.lon, doc.location.lat);
        derived?.assign(doc.city, doc.location, parents);
        ctx.countUnassigned('addresses', ctx.hierarchy.unassigned(levels, parents));
        doc.country_id = parents.country_id;
        doc.province_id = parents.province_id;
        doc.municipality_id = parents.municipality_id;
        doc.city_id = parents.city_id;
        doc.suburb_id = parents.suburb_id;
        doc.building_id = parents.building_id;
        streets.add(doc);
        ctx.placeAccumulator.add(doc);
        yield { id: doc.id, doc, origin, position: item.position, version: mergePriority(parents, sequence++) };
      }
    }
  }
  const addressStart = Date.now();
  const result = await ctx.load('addresses', 'addresses', items(), false);
  ctx.addressMs = Date.now() - addressStart;
  s.indexed = result.sent - result.failed;
  // Duplicates of one full address share an _id; Elasticsearch keeps the highest version and says which lost.
  s.merged = result.superseded;
  ctx.logLoaded('addresses');
  const remap = derived ? await loadDerivedCities(ctx, derived) : undefined;
  ctx.foldedCities = [...(remap?.keys() ?? [])].sort();
  ctx.placeAccumulator.applyRemap(remap);
  ctx.builtStreets = await loadStreets(ctx, streets, remap);
}

/**
 * How the source's addresses find their parents: by point-in-polygon, or (`parent.by: "code"`, BeST's NIS code) by
 * the code first and every slot the code leaves open by point-in-polygon.
 */
async function addressParents(
  ctx: RunContext,
  source: AddressSource,
): Promise<(props: Properties, lon: number, lat: number) => Parents> {
  const spec = source.parent;
  if (spec?.by !== 'code') return (_, lon, lat) => ctx.hierarchy.resolveSpatialParents('addresses', lon, lat);
  const lookup = spec.lookup ? await ctx.lookups.get(spec.lookup) : undefined;
  const level = spec.level ?? 'municipalities';
  return (props, lon, lat) => {
    const raw = readField(props, spec.field);
    const value = lookup ? (lookup.get(raw) ?? '') : raw;
    return ctx.hierarchy.resolveByCodeThenSpatially('addresses', { level, field: spec.parentField, value }, lon, lat);
  };
}

/** The source's street-names table, read whole (thousands of rows), or undefined when it has none. */
async function readStreetNames(source: AddressSource): Promise<StreetNameTable | undefined> {
  const spec = source.streetNames;
  if (!spec) return undefined;
  const lookup = spec.within?.lookup;
  return new StreetNameTable(
    spec,
    await readCsvTable(spec.file, spec),
    lookup ? await readCsvTable(lookup.file, lookup) : [],
  );
}

/** Loads the derived cities and moves the addresses of folded groups; returns that move for the streets. */
async function loadDerivedCities(ctx: RunContext, derived: DerivedCities): Promise<CityRemap> {
  const { records: cities, remap } = derived.finish();
  const c = ctx.levels.cities;
  ctx.initUnassigned('cities');
  for (const city of cities) {
    ctx.countUnassigned(
      'cities',
      ctx.hierarchy.unassigned(ancestorLevels('cities'), { ...emptyAllParents(), ...city.parents }),
    );
    countRepairs(c, city.repairs);
  }
  c.read += cities.length;
  const { summary, origin } = ctx.addSource('cities', 'derived from addresses');
  summary.read = cities.length;
  ctx.hierarchy.addAreaLevel('cities', cities);
  const r = await ctx.load(
    'areas',
    'cities',
    arrayItems(cities.map((city, i) => ({ id: city.id, doc: toAreaDoc(city), origin, position: i + 1 }))),
    false,
  );
  c.indexed += r.sent - r.failed;
  const moved = ctx.writes
    ? await remapAddressCities(ctx.setup.client, ctx.index('addresses'), remap, () => ctx.checkAbort())
    : 0;
  ctx.logLoaded('cities', { derived: true, foldedGroups: remap.size, movedAddresses: moved });
  return remap;
}
