/**
 * Streams the addresses into their index, each joined to its parents on the way; the cities derived
 * from their city names (where the manifest asks for it) are loaded once the stream has ended, then the
 * streets accumulated on the way (indexer/derived/streetDocuments.ts).
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { LiveFolds } from '../derived/liveFolds.js';
import type { LoadItem } from '../execution/bulkLoader.js';
import { type CityRemap, DerivedCities } from '../derived/derivedCities.js';
import { ancestorLevels } from '../base/levels.js';
import { mergePriority } from '../records/mergePriority.js';
import { emptyAllParents, type Parents } from '../records/records.js';
import { type Properties, readField } from '../transform/fields.js';
import { arrayItems, type RunContext } from '../execution/runContext.js';
import type { AddressRows } from '../rows/addressRows.js';
import { ReplayedRows, rowDataOf } from '../rows/addressRowData.js';
import { digestBytes, type RawDigests, rawDigests } from '../rows/rawCsvRecords.js';
import { type ReplayParts, replaySource, touchRowsNotReplayed } from './addressReplay.js';
import { areaNamesKey } from '../derived/untouchedDocuments.js';
import { addressFromRecord } from '../transform/address.js';
import { countRepairs } from '../execution/summary.js';
import { toAreaDoc } from '../transform/area.js';
import { remapAddressCities } from './cityRemap.js';
import { StreetAccumulator } from '../derived/streetDocuments.js';
import { loadStreets } from './streets.js';
import { CountryClaims } from './countryClaims.js';
import { loadOsmFeatures } from './osmFeatures.js';
import type { AddressSource } from '../manifest/manifestSources.js';
import { readCsvTable } from '../sources/csv.js';
import { applyStreetNames, StreetNameTable } from '../transform/streetNames.js';

export async function loadAddresses(ctx: RunContext): Promise<void> {
  const sources = ctx.manifest.levels.addresses ?? [];
  const deriveCities = (ctx.manifest.levels.cities ?? []).some((c) => c.format === 'derived');
  const derived = deriveCities ? new DerivedCities(ctx.hierarchy, ctx.memoize) : undefined;
  if (!sources.length) return;
  const streets = new StreetAccumulator();
  ctx.initUnassigned('addresses');
  const rows = ctx.rows;
  const load: AddressLoad = {
    ctx,
    rows,
    raws: undefined,
    replayedRows: rows?.plan && new ReplayedRows(rows.plan.cache),
    replayed: { count: 0 },
    folds: ctx.writePolicy?.liveFolds,
    accumulate: accumulator(ctx, derived, streets),
    // As at the area levels: where an osm-pbf source is one of two with addresses in a country, the first listed wins it.
    claims: new CountryClaims(sources.map((source) => source.format === 'osm-pbf')),
  };
  // Each file's raw records, digested (one pass, no parsing), for the row cache of a full read; a file the raw pass
  // cannot read (a truncated .gz) is left to the full read, which names what is wrong with it.
  load.raws = rows && !rows.plan ? await rawDigestsOf(sources) : undefined;
  reserveRows(rows, load.raws);
  const addressStart = Date.now();
  const result = await ctx.load(
    'addresses',
    'addresses',
    addressItems(load, sources),
    false,
    rows && recordDocument(rows),
  );
  releaseReplay(load);
  ctx.addressMs = Date.now() - addressStart;
  const s = ctx.levels.addresses;
  // Rows replayed by `update` (indexer/rows/) are documents the new generation holds as a full run would send them.
  s.indexed = result.sent - result.failed + load.replayed.count;
  // Duplicates of one full address share an _id; Elasticsearch keeps the highest version and says which lost.
  s.merged = result.superseded;
  ctx.logLoaded('addresses');
  ctx.stageMs.addressRows = ctx.addressMs;
  await loadCitiesAndStreets(ctx, derived, streets, { sources, claims: load.claims });
}

/** What one address load keeps across its sources. */
interface AddressLoad {
  ctx: RunContext;
  rows: AddressRows | undefined;
  /** Each source's raw records' digests, for the row cache of a full read. */
  raws: (RawDigests | undefined)[] | undefined;
  /** The live row cache's rows read back (`update` under a row plan), let go once the addresses are loaded. */
  replayedRows: ReplayedRows | undefined;
  replayed: { count: number };
  folds: LiveFolds | undefined;
  accumulate: Accumulate;
  /** Which source has a country's addresses where OpenStreetMap is one of two (countryClaims.ts). */
  claims: CountryClaims;
}

type Accumulate = ReplayParts['accumulate'];
type Derive = ReplayParts['derive'];

/** What every address row adds to the cities, streets and places, whether derived now or replayed. */
function accumulator(ctx: RunContext, derived: DerivedCities | undefined, streets: StreetAccumulator): Accumulate {
  const levels = ancestorLevels('addresses');
  let sequence = 0;
  return (doc, parents) => {
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
    return mergePriority(parents, sequence++);
  };
}

/**
 * The row cache sized once for every row (growing it source by source would copy it each time); of an update's rows,
 * only those read the full way are held whole (rowCache.ts).
 */
function reserveRows(rows: AddressRows | undefined, raws: (RawDigests | undefined)[] | undefined): void {
  if (rows?.plan) {
    rows.builder.reserve(
      rows.plan.sources.reduce((n, p) => n + p.scan.count, 0),
      rows.plan.parsed,
    );
  } else rows?.builder.reserve((raws ?? []).reduce((n, r) => n + (r?.line.length ?? 0), 0));
}

/** Every source's addresses: replayed under `update`'s row plan where it has one, else read the full way. */
async function* addressItems(
  load: AddressLoad,
  sources: readonly AddressSource[],
): AsyncGenerator<LoadItem<AddressDoc>> {
  const { ctx, rows, raws, replayed, folds, accumulate } = load;
  for (const [index, source] of sources.entries()) {
    const derive = await recordDeriver(load, source, index);
    const plan = rows?.plan?.sources[index];
    const replayedRows = load.replayedRows;
    if (rows && plan && replayedRows) {
      yield* replaySource(ctx, source, { rows, plan, derive, accumulate, replayedRows, replayed, folds });
      continue;
    }
    const raw = raws?.[index];
    const header = raw && { ...digestBytes(raw.scan.header) };
    const sourceRows = raw && header && rows?.builder.beginSource(source.file, header.hi, header.lo);
    let j = 0;
    for await (const read of ctx.records('addresses', source)) {
      // The raw record this one was parsed from (same first line): its digest goes into the row cache.
      while (raw && j < raw.line.length && (raw.line[j] as number) < read.item.position) j++;
      const aligned = raw !== undefined && j < raw.line.length && raw.line[j] === read.item.position;
      const out = await derive(read, aligned ? sourceRows : undefined, raw?.hi[j] ?? 0, raw?.lo[j] ?? 0);
      if (out) yield out;
    }
  }
}

/** A record read the full way: derived, accumulated, recorded in the row cache (digest `hi`, `lo`). */
async function recordDeriver(load: AddressLoad, source: AddressSource, index: number): Promise<Derive> {
  const { ctx, rows, folds, accumulate, claims } = load;
  const streetNames = await readStreetNames(source);
  const parentsOf = await addressParents(ctx, source);
  return async (read, sourceRows, hi, lo) => {
    const { item, summary, origin } = read;
    const outcome = addressFromRecord(item.props, item.geometry, source.fields);
    if (!outcome.ok) {
      const record = item.geometry ? { properties: item.props, geometry: item.geometry } : item.props;
      await ctx.reject('addresses', summary, item.position, outcome, record, { item });
      return undefined;
    }
    const doc = outcome.value;
    let joined = false;
    if (streetNames) {
      const entry = streetNames.join(item.props, doc.street_key);
      if (entry) {
        applyStreetNames(doc, entry);
        summary.streetNamesJoined = (summary.streetNamesJoined ?? 0) + 1;
        joined = true;
      }
    }
    const parents = parentsOf(item.props, doc.location.lon, doc.location.lat);
    if (!claims.claimCountry(parents.country_id, index)) {
      // An earlier source's addresses cover the country and one of the two is OpenStreetMap: that one wins.
      skipRead(ctx.levels.addresses, summary);
      return undefined;
    }
    const found = sourceRows && { ...parents };
    const version = accumulate(doc, parents);
    if (folds?.has(parents.city_id)) folds.note(doc.id, parents.city_id, version);
    ctx.untouched?.touch(doc);
    const data = found && rowDataOf(doc, found, parents.city_id);
    const row = sourceRows && data && rows?.builder.addRecord(sourceRows, hi, lo, data, joined);
    return { id: doc.id, doc, origin, position: item.position, version, ...(row !== undefined && { row }) };
  };
}

/** A record read but skipped (another source won its country): counted as skipped, not as read. */
function skipRead(level: { read: number; skipped: number }, summary: { read: number; skipped: number }): void {
  level.read--;
  summary.read--;
  level.skipped++;
  summary.skipped++;
}

/** The live generation's row cache is replayed: let it go (~80 bytes a row) before the cities, streets and places. */
function releaseReplay(load: AddressLoad): void {
  const { ctx, rows } = load;
  // The live rows not replayed (changed or gone) touched their streets and postcodes as the rows read now did.
  if (rows?.plan && load.replayedRows && ctx.untouched)
    touchRowsNotReplayed(rows.plan, load.replayedRows, ctx.untouched);
  load.replayedRows = undefined;
  if (rows) {
    rows.plan = undefined;
    rows.liveIndex = undefined;
    rows.replayed = undefined;
  }
}

/** After the addresses: the derived cities (their folds moving addresses), then the streets built on the way. */
async function loadCitiesAndStreets(
  ctx: RunContext,
  derived: DerivedCities | undefined,
  streets: StreetAccumulator,
  osm: { sources: readonly AddressSource[]; claims: CountryClaims },
): Promise<void> {
  const citiesStart = Date.now();
  const remap = derived ? await loadDerivedCities(ctx, derived) : undefined;
  ctx.cityRemap = remap ?? new Map();
  ctx.placeAccumulator.applyRemap(remap);
  ctx.stageMs.derivedCities = Date.now() - citiesStart;
  const streetsStart = Date.now();
  await loadOsmFeatures(ctx, osm.sources, streets, osm.claims);
  ctx.builtStreets = await loadStreets(ctx, streets, remap);
  ctx.stageMs.streets = Date.now() - streetsStart;
}

async function rawDigestsOf(sources: readonly AddressSource[]): Promise<(RawDigests | undefined)[]> {
  const out: (RawDigests | undefined)[] = [];
  for (const source of sources) out.push(await rawDigests(source.file).catch(() => undefined));
  return out;
}

/** The row cache learns each document's id, digest and version as the loader digests it. */
function recordDocument(rows: AddressRows) {
  return (item: LoadItem<object>, digest: string) => {
    if (item.row !== undefined) rows.builder.setDocument(item.row, item.id, digest, item.version);
  };
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
  // An update's addresses of groups the live generation folded otherwise (their live copies kept as they were).
  const liveFolds = ctx.writePolicy?.liveFolds;
  const changedFolds = liveFolds?.changed(remap) ?? new Map();
  const refolded = liveFolds?.moves(changedFolds, (group) => derived.ownParents(group)) ?? new Map();
  ctx.untouched?.refold(changedFolds);
  const liveNames = ctx.writePolicy?.liveCityNames;
  if (liveNames) {
    ctx.untouched?.rename(cities.filter((city) => liveNames.get(city.id) !== areaNamesKey(city)).map((c) => c.id));
  }
  const moved = ctx.writes
    ? await remapAddressCities(ctx.setup.client, ctx.index('addresses'), remap, refolded, () => ctx.checkAbort())
    : 0;
  ctx.logLoaded('cities', { derived: true, foldedGroups: remap.size, refolded: refolded.size, movedAddresses: moved });
  return remap;
}
