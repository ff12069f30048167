/**
 * One new generation of the five indexes, whether a full run or `update`: the same preamble (the live generation,
 * orphans of killed runs removed, left write blocks lifted), the same load order, checks, completion mark, row cache,
 * lock check, swap and prune, and the same failure path. What differs is the target (GenerationTarget): fresh indexes
 * (freshIndexes.ts) or a change set on a clone of the live generation (indexer/update/changeSetTarget.ts).
 */
import { resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { AREA_LEVELS } from '../base/levels.js';
import { type Logger, silentLogger } from '../base/logger.js';
import { DerivationState } from '../execution/derivationState.js';
import { IndexingError } from '../execution/errors.js';
import { createProgress, type ProgressReporter } from '../execution/progress.js';
import { RejectsWriter } from '../execution/rejects.js';
import { type RunAbort, watchAbort } from '../execution/runAbort.js';
import { RunContext, type UpdateWrites } from '../execution/runContext.js';
import { RunTallies } from '../execution/runTallies.js';
import type { RunSummary } from '../execution/summary.js';
import { listGenerations } from '../generations/generations.js';
import { type PruneResult, removeOrphans, rollbackChain } from '../generations/pruning.js';
import { acquireRunLock, type RunLock } from '../generations/runLock.js';
import { generationIndexesIn, liftLeftWriteBlocks } from '../generations/writeBlocks.js';
import { loadAddresses } from '../levelLoaders/addresses.js';
import { loadAreaLevel } from '../levelLoaders/areas.js';
import { loadBuildings } from '../levelLoaders/buildings.js';
import { loadPlaces } from '../levelLoaders/places.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import type { AddressRows } from '../rows/addressRows.js';
import { type RunRowCache, runRowCache, saveRowCache } from '../rows/rowCacheRun.js';
import { markGenerationComplete, updateBasisOf, verifyGeneration } from './completion.js';
import { pruneRowCachesOf } from './rowCachePruning.js';
import type { RunOptions } from './runOptions.js';
import { failedRun, swapAndPrune } from './runEnding.js';

/** What a command has checked before the run starts (commands/startRun.ts): the manifest and the new generation. */
export interface GenerationStart {
  prefix: string;
  generation: string;
  manifestPath: string;
  manifest: Manifest;
}

/** The run as a target sees it once it has begun. */
export interface Generation extends GenerationStart {
  client: Client;
  log: Logger;
  /** The new generation's index of each kind. */
  indexes: Record<IndexKind, string>;
  /** The live generation when the run began (null: none). */
  previousGeneration: string | null;
  /** The indexes this run made, deleted if it fails before the swap. */
  created: string[];
  rowCache: RunRowCache;
  signal: AbortSignal;
  checkAbort: () => void;
  /** Where the time went, by step (the change set's summary shows them). */
  timings: Record<string, number>;
  /** What the run counts (the summary's figures). */
  tallies: RunTallies;
  /** The summary so far, with these problems (a target's own fields added by GenerationTarget.summary). */
  summary: (problems: string[]) => RunSummary;
}

/** What the loaders write through, once the target has made the new generation's indexes. */
export interface OpenedGeneration {
  rows: AddressRows | undefined;
  update?: UpdateWrites;
}

/** Where a run writes its generation: fresh indexes (the full run) or a change set on a clone of live (update). */
export interface GenerationTarget<S extends RunSummary> {
  /** The lock's operation; failures are logged as the run's or the update's. */
  readonly operation: 'index' | 'update';
  /** Nothing is written (update --dry-run): no lock, no orphan removed, no index made, no alias touched. */
  readonly dryRun: boolean;
  /** The checks before anything is written; returns the live generation (null: none). */
  begin(client: Client, prefix: string): Promise<string | null>;
  /** The log line the run starts with. */
  started(generation: Generation): [fields: object, message: string];
  /** Makes the new generation's indexes (each listed in `generation.created`) and what the loaders write through. */
  open(generation: Generation): Promise<OpenedGeneration>;
  /** Once loaded, before anything is finished: a summary to end with here (a dry run), or a refusal thrown. */
  loaded(generation: Generation): Promise<S | undefined>;
  /** Finishes one index of the new generation (refresh, replicas, merge; update deletes what live has in excess). */
  finish(generation: Generation, kind: IndexKind): Promise<void>;
  /** The completion mark's count of updates since the last full run. */
  updateSerial(): number;
  /** The summary: the run's, with the target's own fields. */
  summary(base: RunSummary, generation: Generation): S;
  /** What a failure becomes (update: a change limit hit while reading becomes a refusal). */
  failed(error: unknown, generation: Generation): Promise<unknown>;
}

/** Takes the prefix's lock (or fails at once naming its holder, creating nothing) and makes the generation under it. */
export async function runGeneration<S extends RunSummary>(
  options: RunOptions,
  start: GenerationStart,
  target: GenerationTarget<S>,
): Promise<S> {
  if (target.dryRun) return runLocked(options, start, target, undefined);
  const lock = await acquireRunLock(
    options.client,
    start.prefix,
    { operation: target.operation, generation: start.generation },
    { lease: options.lease, log: options.log },
  );
  try {
    return await runLocked(options, start, target, lock);
  } finally {
    await lock.release();
  }
}

/** What a run keeps beside the target: its rejects, progress, abort watch and tallies. */
interface RunHarness {
  rejects: RejectsWriter;
  rejectsPath: string;
  progress: ProgressReporter;
  abort: RunAbort;
  tallies: RunTallies;
}

async function runLocked<S extends RunSummary>(
  options: RunOptions,
  start: GenerationStart,
  target: GenerationTarget<S>,
  lock: RunLock | undefined,
): Promise<S> {
  const started = Date.now();
  const log = options.log ?? silentLogger;
  const { client } = options;
  const { prefix, generation } = start;
  const previousGeneration = await target.begin(client, prefix);
  const before = await listGenerations(client, prefix);
  // Decided once, at the start: after the swap "the newest generation before live" may be one rolled away from.
  const protect = [generation, ...rollbackChain(before, previousGeneration)];
  // With the lock held no other run is in flight: incomplete generations are debris of killed runs.
  const orphansRemoved = target.dryRun ? [] : await removeOrphans(client, before, protect);
  if (orphansRemoved.length) log.warn({ generations: orphansRemoved }, 'removed incomplete generations of killed runs');
  if (!target.dryRun) await liftLeftWriteBlocks(client, prefix, generationIndexesIn(before), log);

  const parts = runHarness(options, generation, lock, log);
  const state = { swapped: false };
  const indexes = Object.fromEntries(INDEX_KINDS.map((k) => [k, generationIndexName(prefix, k, generation)])) as Record<
    IndexKind,
    string
  >;
  const base = (problems: string[], pruned: PruneResult = { pruned: [], orphans: [] }): RunSummary =>
    runSummary({ start, indexes, previousGeneration, orphansRemoved, parts, started, ...state }, problems, pruned);
  const signal = parts.abort.signal;
  const run: Generation = {
    ...start,
    client,
    log,
    indexes,
    previousGeneration,
    created: [],
    rowCache: runRowCache(start.manifest, options.rowCacheDir),
    signal,
    checkAbort: () => {
      if (signal.aborted) throw signal.reason;
    },
    timings: {},
    tallies: parts.tallies,
    summary: base,
  };
  const summary = (problems: string[], pruned?: PruneResult): S => target.summary(base(problems, pruned), run);
  try {
    log.info(...target.started(run));
    const { ctx, early } = await loadGeneration(run, target, parts, options.tuning);
    if (early) return early;
    const problems = await finishGeneration(run, ctx, target, options);
    if (problems.length) {
      throw new IndexingError(
        `generation ${generation} failed verification:\n  ${problems.join('\n  ')}`,
        summary(problems),
      );
    }
    const onSwapped = () => (state.swapped = true);
    const end = { options, lock, protect, abort: parts.abort, onSwapped };
    return summary([], await completeGeneration(run, ctx, target, end));
  } catch (caught) {
    const error = await target.failed(caught, run);
    const what = target.operation === 'index' ? 'run' : 'update';
    const { progress, rejects } = parts;
    throw await failedRun(
      { client, prefix, generation, log },
      { error, swapped: state.swapped, created: run.created, progress, rejects, summary, what },
    );
  } finally {
    parts.abort.release();
  }
}

function runHarness(options: RunOptions, generation: string, lock: RunLock | undefined, log: Logger): RunHarness {
  const rejectsPath = resolve(options.rejectsPath ?? `rejects/${generation}.jsonl`);
  // Losing the lock (a stall longer than the lease) aborts the run like a signal does.
  const stops = [options.signal, lock?.lostSignal].filter((s): s is AbortSignal => s !== undefined);
  return {
    rejectsPath,
    rejects: new RejectsWriter(rejectsPath),
    progress: createProgress({ mode: options.progress ?? 'auto' }),
    abort: watchAbort(AbortSignal.any(stops), options.handleSignals ?? true, log),
    tallies: new RunTallies(),
  };
}

function runSummary(
  run: {
    start: GenerationStart;
    indexes: Record<IndexKind, string>;
    previousGeneration: string | null;
    orphansRemoved: string[];
    parts: RunHarness;
    started: number;
    swapped: boolean;
  },
  problems: string[],
  pruned: PruneResult,
): RunSummary {
  const { start, parts } = run;
  const { rejects, tallies } = parts;
  return {
    ok: problems.length === 0,
    generation: start.generation,
    prefix: start.prefix,
    manifest: start.manifestPath,
    indexes: run.indexes,
    aliasesSwapped: run.swapped,
    previousGeneration: run.previousGeneration,
    pruned: pruned.pruned,
    orphansRemoved: [...run.orphansRemoved, ...pruned.orphans],
    levels: tallies.levels,
    streets: tallies.streets,
    places: tallies.places,
    rejects: {
      path: rejects.written ? parts.rejectsPath : null,
      count: rejects.count,
      byReason: { ...rejects.byReason },
    },
    problems,
    durationMs: Date.now() - run.started,
    addressesPerSecond: tallies.addressMs ? Math.round(tallies.levels.addresses.read / (tallies.addressMs / 1000)) : 0,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** The loaders' context over the generation the target opened, the levels loaded top down, then the target's say. */
async function loadGeneration<S extends RunSummary>(
  run: Generation,
  target: GenerationTarget<S>,
  parts: RunHarness,
  tuning: RunOptions['tuning'],
): Promise<{ ctx: RunContext; early: S | undefined }> {
  const opened = await target.open(run);
  const { client, manifest, generation, prefix, log, signal } = run;
  const { rejects, progress, tallies } = parts;
  const ctx = new RunContext(
    { client, manifest, generation, prefix, rejects, progress, signal, tuning, log },
    { tallies, derivation: new DerivationState(), rows: opened.rows, update: opened.update },
  );
  const loadStart = Date.now();
  let mark = loadStart;
  const lap = (name: string) => {
    run.timings[name] = Date.now() - mark;
    mark = Date.now();
  };
  for (const level of AREA_LEVELS) await loadAreaLevel(ctx, level);
  lap('areas');
  await loadBuildings(ctx);
  lap('buildings');
  await loadAddresses(ctx);
  lap('addressesCitiesStreets');
  await loadPlaces(ctx);
  lap('places');
  run.timings.computeAndWrite = Date.now() - loadStart;
  progress.stop();
  await rejects.close();
  return { ctx, early: await target.loaded(run) };
}

/** Every index finished by the target, then counted and checked: returns what does not add up (empty: verified). */
async function finishGeneration<S extends RunSummary>(
  run: Generation,
  ctx: RunContext,
  target: GenerationTarget<S>,
  options: RunOptions,
): Promise<string[]> {
  const finishStart = Date.now();
  for (const kind of INDEX_KINDS) {
    run.checkAbort();
    await target.finish(run, kind);
  }
  await options.beforeVerify?.(run.indexes);
  const problems = await verifyGeneration(ctx, options.maxRejectRatio ?? 0.01);
  run.timings.finish = Date.now() - finishStart;
  return problems;
}

/** What ends a verified run: the completion mark, the row cache, the lock check, the swap and the prunes. */
async function completeGeneration<S extends RunSummary>(
  run: Generation,
  ctx: RunContext,
  target: GenerationTarget<S>,
  end: { options: RunOptions; lock: RunLock | undefined; protect: string[]; abort: RunAbort; onSwapped: () => void },
): Promise<PruneResult | undefined> {
  const { options, lock } = end;
  const { client, prefix, generation, log } = run;
  run.checkAbort();
  await options.atStep?.('mark-complete');
  await markGenerationComplete(ctx, run.manifestPath, updateBasisOf(ctx.cityRemap, target.updateSerial()));
  run.checkAbort();
  await options.atStep?.('save-row-cache');
  await saveRowCache(run.rowCache, { prefix, generation, log }, ctx.rows);
  // A run that stalled past its lease may have lost the lock to another run: then it must not swap.
  await lock?.assertHeld();
  // A signal up to the swap aborts the run (swapAndPrune checks it last); from the swap on it lets the run finish.
  const pruned = await swapAndPrune(
    { client, prefix, generation, log },
    {
      previousGeneration: run.previousGeneration,
      lock,
      keep: options.keep ?? 2,
      protect: end.protect,
      abort: end.abort,
      beforeSwap: () => options.atStep?.('swap'),
    },
    end.onSwapped,
  );
  await pruneRowCachesOf(client, run.rowCache.dir, prefix, log);
  return pruned;
}
