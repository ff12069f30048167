/**
 * One indexing run: manifest in, a new generation of all three indexes out, verified, then made
 * live with one atomic alias swap. Anything that goes wrong before the swap deletes this run's own
 * indexes and leaves the aliases alone.
 */
import { relative, resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { AddressDoc, IndexKind } from '../src/elasticsearch/documents.js';
import { INDEX_KINDS } from '../src/elasticsearch/documents.js';
import { generationIndexName } from '../src/elasticsearch/indexNames.js';
import { type BulkTuning, bulkLoad, type DroppedDocument, type LoadItem } from './bulkLoader.js';
import {
  aliasesExist,
  assertAliasNamesFree,
  createGenerationIndex,
  deleteIndexes,
  finishGenerationIndex,
  liveGeneration,
  markComplete,
  newGeneration,
  prune,
  swapAliases,
} from './generations.js';
import { pointOnSurface } from './geometry.js';
import { DerivedCities, emptyAllParents, Hierarchy, type Parents } from './hierarchy.js';
import {
  AREA_LEVELS,
  type AreaLevelName,
  ancestorLevels,
  LEVELS,
  type LevelName,
  type ParentLevelName,
} from './levels.js';
import { type AddressSource, type AreaSource, type BuildingSource, loadManifest, type Manifest } from './manifest.js';
import { createProgress, type ProgressMode, type ProgressReporter } from './progress.js';
import type { RejectReason } from './rejectReasons.js';
import { type RejectEntry, RejectsWriter } from './rejects.js';
import { readCsvTable } from './sources/csv.js';
import { readSource, type SourceItem } from './sources/index.js';
import { addressFromRecord } from './transform/address.js';
import { type AreaRecord, areaFromFeature, mergeAreas, toAreaDoc } from './transform/area.js';
import { type BuildingRecord, buildingFromFeature, toBuildingDoc } from './transform/building.js';
import { matchesFilters, readField } from './transform/fields.js';

/** `npm start` asks this before serving: no aliases means an empty cluster that needs the sample. */
export { aliasesExist };

/** The subset of pino the indexer uses, so any pino logger (or a stub) can be passed. */
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface RunOptions {
  client: Client;
  manifestPath: string;
  indexPrefix?: string;
  /** Complete generations to keep (the live and the previous one are always kept). */
  keep?: number;
  /** Fail when rejected/read exceeds this for any level. */
  maxRejectRatio?: number;
  /** Default `rejects/<generation>.jsonl` under the working directory. */
  rejectsPath?: string;
  progress?: ProgressMode;
  log?: Logger;
  /** Abort the run (the CLI wires SIGINT/SIGTERM here); this run's indexes are then deleted. */
  signal?: AbortSignal;
  /** Catch SIGINT/SIGTERM while the run is in progress and abort cleanly (default true). */
  handleSignals?: boolean;
  tuning?: Partial<BulkTuning>;
}

export interface SourceSummary {
  file: string;
  read: number;
  skipped: number;
  rejected: number;
}

export interface LevelSummary {
  /** Records that passed the source filters (filtered-out ones are `skipped`). */
  read: number;
  skipped: number;
  /** Accepted and stored: read = indexed + rejected. */
  indexed: number;
  /** Indexed records that landed on an id another record already had (same key / same address). */
  merged: number;
  rejected: number;
  rejectReasons: Partial<Record<RejectReason, number>>;
  /** Per parent level: records that found no parent of that level (only levels the dataset has). */
  unassigned: Partial<Record<ParentLevelName, number>>;
  /** Documents of this level in the new index after refresh: indexed − merged. */
  count: number;
  sources: SourceSummary[];
}

export interface RunSummary {
  ok: boolean;
  generation: string;
  prefix: string;
  manifest: string;
  indexes: Record<IndexKind, string>;
  aliasesSwapped: boolean;
  previousGeneration: string | null;
  pruned: string[];
  levels: Record<LevelName, LevelSummary>;
  rejects: { path: string | null; count: number; byReason: Partial<Record<RejectReason, number>> };
  problems: string[];
  durationMs: number;
  addressesPerSecond: number;
  peakRssMb: number;
}

export class IndexingError extends Error {
  override name = 'IndexingError';
  constructor(
    message: string,
    public summary?: RunSummary,
  ) {
    super(message);
  }
}

export class IndexingAbortedError extends IndexingError {
  override name = 'IndexingAbortedError';
  constructor(readonly signalName: string) {
    super(`indexing aborted by ${signalName}`);
  }
}

export function emptyLevel(): LevelSummary {
  return {
    read: 0,
    skipped: 0,
    indexed: 0,
    merged: 0,
    rejected: 0,
    rejectReasons: {},
    unassigned: {},
    count: 0,
    sources: [],
  };
}

/** Pure: the checks that decide whether a generation may go live. */
export function verifyLevels(levels: Record<LevelName, LevelSummary>, maxRejectRatio: number): string[] {
  const problems: string[] = [];
  for (const level of LEVELS) {
    const s = levels[level];
    if (s.read !== s.indexed + s.rejected) {
      problems.push(`${level}: read ${s.read} != indexed ${s.indexed} + rejected ${s.rejected}`);
    }
    if (s.count !== s.indexed - s.merged) {
      problems.push(`${level}: _count ${s.count} != indexed ${s.indexed} - merged ${s.merged}`);
    }
    if (s.merged < 0) problems.push(`${level}: negative merge count ${s.merged}`);
    const ratio = s.read > 0 ? s.rejected / s.read : 0;
    if (ratio > maxRejectRatio) {
      problems.push(
        `${level}: ${s.rejected} of ${s.read} records rejected (${(ratio * 100).toFixed(2)}%), above the maximum ${(maxRejectRatio * 100).toFixed(2)}%`,
      );
    }
  }
  return problems;
}

class Run {
  readonly levels = Object.fromEntries(LEVELS.map((l) => [l, emptyLevel()])) as Record<LevelName, LevelSummary>;
  readonly hierarchy = new Hierarchy();
  private readonly lookups = new Map<string, Map<string, string>>();
  /** Index of a source in `origins`, for tracing documents Elasticsearch refuses. */
  private readonly origins: { level: LevelName; file: string }[] = [];
  addressMs = 0;

  constructor(
    readonly client: Client,
    readonly manifest: Manifest,
    readonly generation: string,
    readonly prefix: string,
    readonly rejects: RejectsWriter,
    readonly progress: ProgressReporter,
    readonly signal: AbortSignal,
    readonly tuning: Partial<BulkTuning> | undefined,
    readonly log: Logger,
  ) {}

  index(kind: IndexKind): string {
    return generationIndexName(this.prefix, kind, this.generation);
  }

  private checkAbort(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }

  private origin(level: LevelName, file: string): number {
    this.origins.push({ level, file });
    return this.origins.length - 1;
  }

  private async rejectItem(level: LevelName, source: SourceSummary, entry: Omit<RejectEntry, 'level' | 'source'>) {
    const s = this.levels[level];
    s.rejected++;
    s.rejectReasons[entry.reason] = (s.rejectReasons[entry.reason] ?? 0) + 1;
    source.rejected++;
    this.progress.state.rejected++;
    await this.rejects.write({ level, source: source.file, ...entry });
  }

  /** Documents Elasticsearch refused (mapping errors, exhausted retries) are rejects too. */
  private onDrop(level: LevelName) {
    return (drop: DroppedDocument) => {
      const origin = drop.origin === undefined ? undefined : this.origins[drop.origin];
      const s = this.levels[level];
      s.rejected++;
      s.rejectReasons.elasticsearch_error = (s.rejectReasons.elasticsearch_error ?? 0) + 1;
      const src = origin ? s.sources.find((x) => x.file === displayPath(origin.file)) : undefined;
      if (src) src.rejected++;
      const error = drop.error as { type?: string; reason?: string } | null;
      this.rejects.writeLater({
        level,
        source: origin ? displayPath(origin.file) : '',
        line: drop.position ?? null,
        reason: 'elasticsearch_error',
        detail: `HTTP ${drop.status}${error ? `: ${error.type ?? ''} ${error.reason ?? ''}`.trimEnd() : ''}`,
        record: drop.document,
      });
    };
  }

  private initUnassigned(level: LevelName): void {
    const s = this.levels[level];
    for (const ancestor of ancestorLevels(level)) {
      if (ancestor === 'addresses') continue;
      if (this.hierarchy.present(ancestor)) s.unassigned[ancestor] = 0;
    }
  }

  private countUnassigned(level: LevelName, missing: readonly ParentLevelName[]): void {
    const u = this.levels[level].unassigned;
    for (const m of missing) u[m] = (u[m] ?? 0) + 1;
  }

  private async lookupTable(spec: { file: string; key: string; value: string; delimiter?: string | undefined }) {
    const cacheKey = `${spec.file}\0${spec.key}\0${spec.value}`;
    let table = this.lookups.get(cacheKey);
    if (!table) {
      table = new Map();
      for (const row of await readCsvTable(spec.file, spec.delimiter)) {
        const k = (row[spec.key] ?? '').trim();
        if (k && !table.has(k)) table.set(k, (row[spec.value] ?? '').trim());
      }
      this.lookups.set(cacheKey, table);
    }
    return table;
  }

  /** Read one file source, yielding the records that pass its filters; unreadable ones are rejected. */
  private async *records(level: LevelName, source: AreaSource | BuildingSource | AddressSource) {
    const summary: SourceSummary = { file: displayPath(source.file), read: 0, skipped: 0, rejected: 0 };
    this.levels[level].sources.push(summary);
    const s = this.levels[level];
    const origin = this.origin(level, source.file);
    for await (const item of readSource(source, (p) => this.progress.begin(level, displayPath(source.file), p))) {
      this.checkAbort();
      if (!item.error && !matchesFilters(item.props, source.filter)) {
        s.skipped++;
        summary.skipped++;
        continue;
      }
      s.read++;
      summary.read++;
      this.progress.state.read++;
      if (item.error) {
        await this.rejectItem(level, summary, {
          line: item.position,
          reason: 'malformed_record',
          detail: item.error,
          record: item.raw ?? null,
        });
        continue;
      }
      yield { item, summary, origin };
    }
  }

  private async resolveArea(level: AreaLevelName, source: AreaSource, record: AreaRecord, item: SourceItem) {
    const spec = source.parent ?? (level === 'countries' ? undefined : { by: 'spatial' as const });
    if (!spec) return this.hierarchy.completeArea(record, emptyAllParents());
    if (spec.by === 'spatial') {
      const [lon, lat] = pointOnSurface(record.geometry);
      const r = this.hierarchy.resolveSpatial(level, lon, lat);
      this.countUnassigned(level, r.unassigned);
      return this.hierarchy.completeArea(record, r.parents);
    }
    const parentLevel = spec.level ?? (AREA_LEVELS[AREA_LEVELS.indexOf(level) - 1] as AreaLevelName);
    let value = readField(item.props, spec.field);
    if (spec.lookup) value = (await this.lookupTable(spec.lookup)).get(value) ?? '';
    const r = this.hierarchy.resolveByCode(parentLevel, spec.parentField, value);
    this.countUnassigned(level, r.unassigned);
    return this.hierarchy.completeArea(record, r.parents);
  }

  async loadAreaLevel(level: AreaLevelName): Promise<void> {
    const sources = (this.manifest.levels[level] ?? []) as (AreaSource | { format: 'derived' })[];
    if (sources.some((s) => s.format === 'derived')) this.hierarchy.markPending(level);
    const fileSources = sources.filter((s): s is AreaSource => s.format !== 'derived');
    if (!fileSources.length) return;
    this.initUnassigned(level);
    const s = this.levels[level];
    const byKey = new Map<string, { record: AreaRecord; origin: number; position: number }>();
    for (const source of fileSources) {
      for await (const { item, summary, origin } of this.records(level, source)) {
        const outcome = areaFromFeature(level, item.props, item.geometry, source.fields);
        if (!outcome.ok) {
          await this.rejectItem(level, summary, {
            line: item.position,
            reason: outcome.reason,
            detail: outcome.detail,
            record: { properties: item.props, geometry: item.geometry ?? null },
          });
          continue;
        }
        const existing = byKey.get(outcome.value.key);
        s.indexed++;
        if (existing) {
          s.merged++;
          existing.record = mergeAreas(existing.record, outcome.value);
          continue;
        }
        const record = await this.resolveArea(level, source, outcome.value, item);
        byKey.set(record.key, { record, origin, position: item.position });
      }
    }
    const entries = [...byKey.values()];
    this.hierarchy.addAreaLevel(
      level,
      entries.map((e) => e.record),
    );
    await this.load(
      'areas',
      level,
      arrayItems(
        entries.map((e) => ({ id: e.record.id, doc: toAreaDoc(e.record), origin: e.origin, position: e.position })),
      ),
    );
    this.log.info({ dataset_level: level, ...compact(s) }, 'level loaded');
  }

  async loadBuildings(): Promise<void> {
    const sources = this.manifest.levels.buildings ?? [];
    if (!sources.length) return;
    this.initUnassigned('buildings');
    const s = this.levels.buildings;
    const byKey = new Map<string, { record: BuildingRecord; parents: Parents; origin: number; position: number }>();
    for (const source of sources) {
      for await (const { item, summary, origin } of this.records('buildings', source)) {
        const outcome = buildingFromFeature(item.props, item.geometry, source.fields);
        if (!outcome.ok) {
          await this.rejectItem('buildings', summary, {
            line: item.position,
            reason: outcome.reason,
            detail: outcome.detail,
            record: { properties: item.props, geometry: item.geometry ?? null },
          });
          continue;
        }
        s.indexed++;
        if (byKey.has(outcome.value.sourceKey)) {
          // A building mapped twice under one BAG id: keep the first footprint.
          s.merged++;
          continue;
        }
        const [lon, lat] = outcome.value.anchor;
        const r = this.hierarchy.resolveSpatial('buildings', lon, lat);
        this.countUnassigned('buildings', r.unassigned);
        byKey.set(outcome.value.sourceKey, {
          record: outcome.value,
          parents: r.parents,
          origin,
          position: item.position,
        });
      }
    }
    const entries = [...byKey.values()];
    this.hierarchy.setBuildings(entries.map((e) => e.record));
    await this.load(
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
    this.log.info({ dataset_level: 'buildings', ...compact(s) }, 'level loaded');
  }

  async loadAddresses(): Promise<void> {
    const sources = this.manifest.levels.addresses ?? [];
    const deriveCities = (this.manifest.levels.cities ?? []).some((c) => c.format === 'derived');
    const derived = deriveCities ? new DerivedCities(this.hierarchy) : undefined;
    if (!sources.length) return;
    this.initUnassigned('addresses');
    const s = this.levels.addresses;
    const levels = ancestorLevels('addresses');
    const self = this;
    let sequence = 0;
    async function* items(): AsyncGenerator<LoadItem<AddressDoc>> {
      for (const source of sources) {
        for await (const { item, summary, origin } of self.records('addresses', source)) {
          const outcome = addressFromRecord(item.props, item.geometry, source.fields);
          if (!outcome.ok) {
            await self.rejectItem('addresses', summary, {
              line: item.position,
              reason: outcome.reason,
              detail: outcome.detail,
              record: item.geometry ? { properties: item.props, geometry: item.geometry } : item.props,
            });
            continue;
          }
          const doc = outcome.value;
          const parents = self.hierarchy.resolveSpatialParents('addresses', doc.location.lon, doc.location.lat);
          derived?.assign(doc.city, doc.location, parents);
          self.countUnassigned('addresses', self.hierarchy.unassigned(levels, parents));
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
    const result = await this.load('addresses', 'addresses', items(), false);
    this.addressMs = Date.now() - addressStart;
    s.indexed = result.sent - result.failed;
    this.log.info({ dataset_level: 'addresses', ...compact(s) }, 'level loaded');

    if (derived) {
      const cities = derived.records();
      const c = this.levels.cities;
      this.initUnassigned('cities');
      for (const city of cities) {
        this.countUnassigned(
          'cities',
          this.hierarchy.unassigned(ancestorLevels('cities'), { ...emptyAllParents(), ...city.parents }),
        );
      }
      c.read = cities.length;
      c.sources.push({ file: 'derived from addresses', read: cities.length, skipped: 0, rejected: 0 });
      this.hierarchy.addAreaLevel('cities', cities);
      const origin = this.origin('cities', 'derived from addresses');
      const r = await this.load(
        'areas',
        'cities',
        arrayItems(cities.map((city, i) => ({ id: city.id, doc: toAreaDoc(city), origin, position: i + 1 }))),
        false,
      );
      c.indexed = r.sent - r.failed;
      this.log.info({ dataset_level: 'cities', derived: true, ...compact(c) }, 'level loaded');
    }
  }

  /**
   * For in-memory levels `indexed` was counted as records were accepted; only Elasticsearch's
   * refusals are taken off here (for streamed ones the caller sets indexed from the result).
   */
  private async load<D extends object>(
    kind: IndexKind,
    level: LevelName,
    items: AsyncIterable<LoadItem<D>>,
    adjust = true,
  ) {
    this.checkAbort();
    const result = await bulkLoad<D>({
      client: this.client,
      index: this.index(kind),
      items,
      tuning: this.tuning,
      onDrop: this.onDrop(level),
      onRetry: (attempt, error, waitMs) =>
        this.log.warn({ attempt, waitMs, error: (error as Error).message }, 'bulk request failed, retrying'),
      signal: this.signal,
    });
    this.checkAbort();
    if (adjust) this.levels[level].indexed -= result.failed;
    return result;
  }

  async countDocuments(): Promise<void> {
    for (const level of AREA_LEVELS) {
      const res = await this.client.count({
        index: this.index('areas'),
        query: { term: { level: areaLevelValue(level) } },
      });
      this.levels[level].count = res.count;
    }
    this.levels.buildings.count = (await this.client.count({ index: this.index('buildings') })).count;
    const addresses = this.levels.addresses;
    addresses.count = (await this.client.count({ index: this.index('addresses') })).count;
    // Duplicates of one full address share an _id, so Elasticsearch kept one: the merges are the difference.
    addresses.merged = addresses.indexed - addresses.count;
  }
}

const SEQUENCE_SPAN = 2 ** 32;

/**
 * Which of several records with the same full address Elasticsearch keeps (as its external version):
 * the one joined to the most parents (an address point inside its building beats a shop's point on
 * the pavement), then the earliest in the input. Deterministic under concurrent bulk requests.
 */
export function mergePriority(parents: Parents, sequence: number): number {
  let joined = 0;
  for (const slot of ['building_id', 'suburb_id', 'city_id', 'municipality_id', 'province_id', 'country_id'] as const) {
    if (parents[slot]) joined++;
  }
  return joined * SEQUENCE_SPAN + (SEQUENCE_SPAN - 1 - (sequence % SEQUENCE_SPAN));
}

function areaLevelValue(level: AreaLevelName): string {
  return {
    countries: 'country',
    provinces: 'province',
    municipalities: 'municipality',
    cities: 'city',
    suburbs: 'suburb',
  }[level];
}

async function* arrayItems<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

function compact(s: LevelSummary) {
  return { read: s.read, indexed: s.indexed, merged: s.merged, rejected: s.rejected, unassigned: s.unassigned };
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') && rel.split('/').length > 4 ? file : rel;
}

export async function runIndexing(options: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const log = options.log ?? silentLogger;
  const prefix = options.indexPrefix ?? '';
  const keep = options.keep ?? 2;
  const maxRejectRatio = options.maxRejectRatio ?? 0.01;
  const client = options.client;
  if (!/^[a-z0-9_-]*$/.test(prefix)) throw new IndexingError(`invalid index prefix "${prefix}"`);

  const { path: manifestPath, manifest } = await loadManifest(options.manifestPath);
  await assertAliasNamesFree(client, prefix);
  const previousGeneration = (await liveGeneration(client, prefix)) ?? null;

  const generation = newGeneration();
  const rejectsPath = resolve(options.rejectsPath ?? `rejects/${generation}.jsonl`);
  const rejects = new RejectsWriter(rejectsPath);
  const progress = createProgress({ mode: options.progress ?? 'auto' });

  const controller = new AbortController();
  const onExternalAbort = () => controller.abort(options.signal?.reason ?? new IndexingAbortedError('signal'));
  options.signal?.addEventListener('abort', onExternalAbort, { once: true });
  if (options.signal?.aborted) onExternalAbort();
  const signalHandlers: [NodeJS.Signals, () => void][] = [];
  if (options.handleSignals ?? true) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const handler = () => {
        log.warn({ signal: sig }, 'interrupted: deleting this run’s indexes');
        controller.abort(new IndexingAbortedError(sig));
      };
      process.on(sig, handler);
      signalHandlers.push([sig, handler]);
    }
  }

  const created: string[] = [];
  let swapped = false;
  const run = new Run(client, manifest, generation, prefix, rejects, progress, controller.signal, options.tuning, log);
  const summary = (problems: string[], pruned: string[] = []): RunSummary => {
    return {
      ok: problems.length === 0,
      generation,
      prefix,
      manifest: manifestPath,
      indexes: Object.fromEntries(INDEX_KINDS.map((k) => [k, run.index(k)])) as Record<IndexKind, string>,
      aliasesSwapped: swapped,
      previousGeneration,
      pruned,
      levels: run.levels,
      rejects: { path: rejects.written ? rejectsPath : null, count: rejects.count, byReason: { ...rejects.byReason } },
      problems,
      durationMs: Date.now() - started,
      addressesPerSecond: run.addressMs ? Math.round(run.levels.addresses.read / (run.addressMs / 1000)) : 0,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  };

  try {
    log.info({ generation, prefix, manifest: manifestPath }, 'indexing started');
    for (const kind of INDEX_KINDS) {
      const index = run.index(kind);
      await createGenerationIndex(client, index, kind);
      created.push(index);
    }
    for (const level of AREA_LEVELS) await run.loadAreaLevel(level);
    await run.loadBuildings();
    await run.loadAddresses();
    progress.stop();
    await rejects.close();

    for (const kind of INDEX_KINDS) {
      if (controller.signal.aborted) throw controller.signal.reason;
      await finishGenerationIndex(client, run.index(kind), kind);
    }
    await run.countDocuments();
    log.info(
      { levels: Object.fromEntries(LEVELS.map((l) => [l, { ...compact(run.levels[l]), count: run.levels[l].count }])) },
      'documents counted',
    );
    const problems = verifyLevels(run.levels, maxRejectRatio);
    if (problems.length) {
      throw new IndexingError(
        `generation ${generation} failed verification:\n  ${problems.join('\n  ')}`,
        summary(problems),
      );
    }
    if (controller.signal.aborted) throw controller.signal.reason;
    const completedAt = new Date().toISOString();
    for (const kind of INDEX_KINDS) {
      const documents =
        kind === 'areas'
          ? AREA_LEVELS.reduce((n, l) => n + run.levels[l].count, 0)
          : run.levels[kind === 'buildings' ? 'buildings' : 'addresses'].count;
      await markComplete(client, run.index(kind), kind, { generation, completedAt, manifest: manifestPath, documents });
    }
    // From here on the run is a success even if housekeeping fails: the signal no longer aborts it.
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    signalHandlers.length = 0;
    await swapAliases(client, prefix, generation);
    swapped = true;
    log.info({ generation, previousGeneration }, 'aliases swapped');
    let pruned: string[] = [];
    try {
      pruned = await prune(client, prefix, keep);
    } catch (error) {
      log.warn({ error: (error as Error).message }, 'pruning old generations failed; they are left in place');
    }
    return summary([], pruned);
  } catch (error) {
    progress.stop();
    await rejects.close().catch(() => {});
    if (!swapped) {
      await deleteIndexes(client, created).catch((e) =>
        log.error({ error: (e as Error).message, indexes: created }, 'could not delete this run’s indexes'),
      );
      log.error({ generation, error: (error as Error).message }, 'indexing failed; aliases untouched');
    }
    if (error instanceof IndexingError) {
      error.summary ??= summary([error.message]);
      throw error;
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new IndexingError(message, summary([message]));
  } finally {
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    options.signal?.removeEventListener('abort', onExternalAbort);
  }
}
