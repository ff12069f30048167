/**
 * What the level loaders of one run see: its settings, its tallies (runTallies.ts), what it derives as it loads
 * (derivationState.ts), where rejects go, and the bulk load into this generation's indexes. What only `update` brings
 * (which documents are sent, those kept as live holds them) comes from its target (indexer/update/).
 */
import { relative } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { IndexKind, ParentIds, StreetDoc } from '../../core/elasticsearch/documents.js';
import type { WritePolicy } from './writePolicy.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { type BulkTuning, bulkLoad, type DroppedDocument, type LoadItem, type LoadResult } from './bulkLoader.js';
import { ancestorLevels, type LevelName, type ParentLevelName } from '../base/levels.js';
import type { Logger } from '../base/logger.js';
import type { UntouchedDocuments } from '../derived/untouchedDocuments.js';
import type { PlacePoint } from '../derived/placeDocuments.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import type { FileSource } from '../manifest/manifestSources.js';
import type { ProgressReporter } from './progress.js';
import type { Rejection } from '../base/rejectReasons.js';
import type { RejectsWriter } from './rejects.js';
import { type ReadStats, readSource, type SourceItem } from '../sources/index.js';
import { classifyItem, rowOf } from '../transform/sourceItems.js';
import type { AddressRows } from '../rows/addressRows.js';
import { compactLevel, type SourceSummary } from './summary.js';
import type { DerivationState } from './derivationState.js';
import type { RunTallies } from './runTallies.js';

/** The run's settings: where it writes, what it reads, where rejects and progress go, how it is stopped. */
export interface RunSettings {
  client: Client;
  manifest: Manifest;
  generation: string;
  prefix: string;
  rejects: RejectsWriter;
  progress: ProgressReporter;
  signal: AbortSignal;
  tuning: Partial<BulkTuning> | undefined;
  log: Logger;
}

/**
 * What only `update` brings: which documents are sent (only what differs from live), the streets and places no
 * address change reached (untouchedDocuments.ts), and per kind how many of those were kept as live holds them.
 */
export interface UpdateWrites {
  policy: WritePolicy;
  untouched: UntouchedDocuments;
  kept: Partial<Record<IndexKind, number>>;
}

/** The parts a run's context is made of (RunContext): each kept by the pipeline, read by the loaders through it. */
export interface RunParts {
  tallies: RunTallies;
  derivation: DerivationState;
  /** The address rows' cache being written, and `update`'s plan of rows to replay (indexer/rows/). */
  rows?: AddressRows | undefined;
  /** Unset in a full run, which sends every document. */
  update?: UpdateWrites | undefined;
}

/** A record that passed its source's filters, with what it is counted and traced under. */
export interface ReadRecord {
  item: SourceItem;
  summary: SourceSummary;
  origin: number;
}

export class RunContext {
  /** The source behind each origin number load items carry, for tracing documents Elasticsearch refuses. */
  private readonly origins: SourceSummary[] = [];

  constructor(
    readonly setup: RunSettings,
    private readonly parts: RunParts,
  ) {}

  get levels(): RunTallies['levels'] {
    return this.parts.tallies.levels;
  }
  get streets(): RunTallies['streets'] {
    return this.parts.tallies.streets;
  }
  get places(): RunTallies['places'] {
    return this.parts.tallies.places;
  }
  get stageMs(): Record<string, number> {
    return this.parts.tallies.stageMs;
  }
  get addressMs(): number {
    return this.parts.tallies.addressMs;
  }
  set addressMs(ms: number) {
    this.parts.tallies.addressMs = ms;
  }
  get placeAccumulator(): DerivationState['placeAccumulator'] {
    return this.parts.derivation.placeAccumulator;
  }
  get hierarchy(): DerivationState['hierarchy'] {
    return this.parts.derivation.hierarchy;
  }
  get lookups(): DerivationState['lookups'] {
    return this.parts.derivation.lookups;
  }
  get builtStreets(): Iterable<StreetDoc> {
    return this.parts.derivation.builtStreets;
  }
  set builtStreets(streets: Iterable<StreetDoc>) {
    this.parts.derivation.builtStreets = streets;
  }
  get pointPlaces(): PlacePoint[] {
    return this.parts.derivation.pointPlaces;
  }
  get cityRemap(): ReadonlyMap<string, ParentIds> {
    return this.parts.derivation.cityRemap;
  }
  set cityRemap(remap: ReadonlyMap<string, ParentIds>) {
    this.parts.derivation.cityRemap = remap;
  }

  /** An update's streets and places no address change reached (untouchedDocuments.ts); none in a full run. */
  get untouched(): UntouchedDocuments | undefined {
    return this.parts.update?.untouched;
  }

  /** Per kind, the documents an update kept as the live generation holds them, neither digested nor sent. */
  get keptUntouched(): Partial<Record<IndexKind, number>> {
    return this.parts.update?.kept ?? {};
  }

  /** An update's document kept as the live generation holds them (WritePolicy.keep), counted in keptUntouched. */
  keepUntouched(kind: IndexKind, id: string): boolean {
    const update = this.parts.update;
    if (!update?.policy.keep(kind, id)) return false;
    update.kept[kind] = (update.kept[kind] ?? 0) + 1;
    return true;
  }

  get manifest(): Manifest {
    return this.setup.manifest;
  }

  get rows(): AddressRows | undefined {
    return this.parts.rows;
  }

  /** Which documents are sent: unset, every one (a full run); `update` sends only what differs from live. */
  get writePolicy(): WritePolicy | undefined {
    return this.parts.update?.policy;
  }

  /**
   * A dear derivation (a boundary's repair, a derived city's outline), taken over from the live generation's memo
   * where `update` replays its rows (indexer/rows/derivationMemo.ts), and kept for the next run; derived as it is
   * where the run keeps no row cache.
   */
  readonly memoize = <T>(kind: string, input: unknown, derive: () => T): T => {
    const memo = this.parts.rows?.memo;
    return memo ? memo.derive(kind, input, derive) : derive();
  };

  /** False under --dry-run: no index of this generation exists, nothing may be written. */
  get writes(): boolean {
    return !this.writePolicy?.dryRun;
  }

  get log(): Logger {
    return this.setup.log;
  }

  index(kind: IndexKind): string {
    return generationIndexName(this.setup.prefix, kind, this.setup.generation);
  }

  checkAbort(): void {
    if (this.setup.signal.aborted) throw this.setup.signal.reason;
  }

  /** Counts of one source of a level, and the origin number its load items carry. */
  addSource(level: LevelName, file: string): { summary: SourceSummary; origin: number } {
    const summary: SourceSummary = { file, read: 0, skipped: 0, rejected: 0 };
    this.levels[level].sources.push(summary);
    this.origins.push(summary);
    return { summary, origin: this.origins.length - 1 };
  }

  /**
   * The one way a record becomes a reject: counted against its level and source file, and its line
   * written to the rejects file. Documents Elasticsearch refuses come from the bulk helper's onDrop,
   * which cannot await (`queued`: the writes are ordered anyway); the progress line counts only
   * rejects of the file being read. `item`: what was read, to name a GeoPackage row's table and fid.
   */
  reject(
    level: LevelName,
    source: SourceSummary | undefined,
    line: number | null,
    why: Rejection,
    record: unknown,
    { queued = false, weight = 1, item }: { queued?: boolean; weight?: number; item?: SourceItem } = {},
  ): Promise<void> {
    const s = this.levels[level];
    s.rejected += weight;
    s.rejectReasons[why.reason] = (s.rejectReasons[why.reason] ?? 0) + weight;
    if (source) source.rejected += weight;
    const entry = {
      level,
      source: source?.file ?? '',
      line,
      reason: why.reason,
      detail: why.detail,
      record,
      ...(weight > 1 ? { lines: weight } : {}),
      ...(item && rowOf(item)),
    };
    if (queued) {
      this.setup.rejects.writeLater(entry);
      return Promise.resolve();
    }
    this.setup.progress.state.rejected += weight;
    return this.setup.rejects.write(entry);
  }

  /** Documents Elasticsearch refused (mapping errors, exhausted retries) are rejects too. */
  private onDrop(level: LevelName) {
    return (drop: DroppedDocument) => {
      const source = drop.origin === undefined ? undefined : this.origins[drop.origin];
      const error = drop.error as { type?: string; reason?: string } | null;
      const detail = `HTTP ${drop.status}${error ? `: ${error.type ?? ''} ${error.reason ?? ''}`.trimEnd() : ''}`;
      void this.reject(level, source, drop.position ?? null, { reason: 'elasticsearch_error', detail }, drop.document, {
        queued: true,
      });
    };
  }

  initUnassigned(level: LevelName): void {
    const s = this.levels[level];
    for (const ancestor of ancestorLevels(level)) {
      if (ancestor === 'addresses') continue;
      if (this.hierarchy.present(ancestor)) s.unassigned[ancestor] = 0;
    }
  }

  countUnassigned(level: LevelName, missing: readonly ParentLevelName[]): void {
    const u = this.levels[level].unassigned;
    for (const m of missing) u[m] = (u[m] ?? 0) + 1;
  }

  /**
   * Read one file source, yielding the records that pass its filters; unreadable and (unless the source allows
   * them) multi-line ones are rejected, once per physical line they cover (sourceItems.ts).
   */
  async *records(level: LevelName, source: FileSource): AsyncGenerator<ReadRecord> {
    const file = displayPath(source.file);
    const { summary, origin } = this.addSource(level, file);
    const stats: ReadStats = { encoding: '' };
    for await (const item of readSource(source, (p) => this.setup.progress.begin(level, file, p), stats, level)) {
      if (await this.accept(level, source, summary, item)) yield { item, summary, origin };
    }
    summary.encoding = stats.encoding;
    if (stats.lines !== undefined) summary.lines = stats.lines;
    if (stats.statuses) summary.statuses = stats.statuses;
  }

  /**
   * Whether an item read is a record to load: skipped items and rejects are counted (rejects written) here. One
   * place for the read of a whole file and for `update`'s rows parsed one by one (indexer/rows/).
   */
  async accept(level: LevelName, source: FileSource, summary: SourceSummary, item: SourceItem): Promise<boolean> {
    this.checkAbort();
    const s = this.levels[level];
    const outcome = classifyItem(item, source);
    if (outcome.kind === 'skipped') {
      s.skipped++;
      summary.skipped++;
      return false;
    }
    const weight = outcome.kind === 'rejected' ? outcome.weight : 1;
    this.countRead(level, summary, weight);
    if (outcome.kind === 'rejected') {
      if (weight > 1) summary.swallowedLines = (summary.swallowedLines ?? 0) + weight - 1;
      await this.reject(
        level,
        summary,
        item.position,
        outcome.rejection,
        item.error ? (item.raw ?? null) : item.props,
        { weight, item },
      );
      return false;
    }
    return true;
  }

  /** A record read (or replayed by `update`), counted. */
  countRead(level: LevelName, summary: SourceSummary, weight = 1): void {
    this.levels[level].read += weight;
    summary.read += weight;
    this.setup.progress.state.read += weight;
  }

  /**
   * For in-memory levels `indexed` was counted as records were accepted; only Elasticsearch's
   * refusals are taken off here (for streamed ones the caller sets indexed from the result).
   */
  async load<D extends object>(
    kind: IndexKind,
    level: LevelName,
    items: AsyncIterable<LoadItem<D>>,
    adjust = true,
    digested?: (item: LoadItem<object>, digest: string) => void,
  ): Promise<LoadResult> {
    this.checkAbort();
    const loaded = await bulkLoad<D>({
      client: this.setup.client,
      index: this.index(kind),
      items,
      tuning: this.setup.tuning,
      onDrop: this.onDrop(level),
      onRetry: (attempt, error, waitMs) =>
        this.log.warn({ attempt, waitMs, error: (error as Error).message }, 'bulk request failed, retrying'),
      signal: this.setup.signal,
      select: this.writePolicy?.select(kind),
      digested,
    });
    this.checkAbort();
    const result = this.writePolicy ? this.writePolicy.settle(kind, loaded) : loaded;
    if (adjust) this.levels[level].indexed -= result.failed;
    return result;
  }

  logLoaded(level: LevelName, extra: object = {}): void {
    this.log.info({ dataset_level: level, ...extra, ...compactLevel(this.levels[level]) }, 'level loaded');
  }
}

// eslint-disable-next-line @typescript-eslint/require-await -- an AsyncIterable over values in memory, for the loaders
export async function* arrayItems<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** A source file as logs and summaries name it: relative to the working directory unless far outside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') && rel.split('/').length > 4 ? file : rel;
}
