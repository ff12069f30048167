/**
 * One indexing run: manifest in, a new generation of all five indexes (areas, buildings, addresses, the
 * streets built from the addresses and the places built from all of them) out, verified, then made
 * live with one atomic alias swap. Anything that goes wrong before the swap deletes this run's own
 * indexes and leaves the aliases alone. The whole run holds the prefix's lock (runLock.ts).
 */
import { failedRun, swapAndPrune } from '../pipeline/runEnding.js';
import { addressRowsOf, runRowCache, saveRowCache } from '../rows/rowCacheRun.js';
import { pruneRowCachesOf } from '../pipeline/rowCachePruning.js';
import { resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { Manifest } from '../manifest/manifestSchema.js';
import { INDEX_PREFIX_PATTERN } from '../../core/config/rules.js';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import type { BulkTuning } from '../execution/bulkLoader.js';
import { IndexingError } from '../execution/errors.js';
import { listGenerations, liveGeneration } from '../generations/generations.js';
import {
  assertAliasNamesFree,
  assertLayoutFits,
  createGenerationIndex,
  finishGenerationIndex,
  type IndexLayout,
  newGeneration,
} from '../generations/generationIndexes.js';
import { loadAddresses } from '../levelLoaders/addresses.js';
import { loadAreaLevel } from '../levelLoaders/areas.js';
import { loadBuildings } from '../levelLoaders/buildings.js';
import { loadPlaces } from '../levelLoaders/places.js';
import { AREA_LEVELS } from '../base/levels.js';
import { markGenerationComplete, updateBasisOf, verifyGeneration } from '../pipeline/completion.js';
import { type Logger, silentLogger } from '../base/logger.js';
import { loadManifest } from '../manifest/manifest.js';
import { assertSourcesFit } from './preflight.js';
import { type PruneResult, removeOrphans, rollbackChain } from '../generations/pruning.js';
import { createProgress, type ProgressMode } from '../execution/progress.js';
import { RejectsWriter } from '../execution/rejects.js';
import { RunContext } from '../execution/runContext.js';
import { watchAbort } from '../execution/runAbort.js';
import { acquireRunLock, type LeaseTiming, type RunLock } from '../generations/runLock.js';
import { generationIndexesIn, liftLeftWriteBlocks } from '../generations/writeBlocks.js';
import type { RunSummary } from '../execution/summary.js';

export interface RunOptions {
  client: Client;
  manifestPath: string;
  indexPrefix?: string;
  /**
   * Complete generations to keep, counting the new live one. The generation live before the run and its
   * predecessor are kept beyond it (pruning.ts).
   */
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
  /** Shards and replicas of the new indexes (INDEX_SHARDS, INDEX_REPLICAS); unset: the mapping files'. */
  layout?: IndexLayout;
  /**
   * Called once the new indexes are finished, right before they are counted and verified. Tests use it to play
   * what verification must catch (a document lost between the load and the count).
   */
  beforeVerify?: (indexes: Record<IndexKind, string>) => Promise<void>;
  /** The run lock's lease (default 2 minutes, renewed every 30 s). */
  lease?: Partial<LeaseTiming>;
  /** Where each generation's address rows are kept for the next `update` (default `row-cache/`, indexer/rows/). */
  rowCacheDir?: string;
  /**
   * Called as each of the run's last steps begins (marking the generation complete, saving its row cache, the alias
   * swap), after the run's own check for a stop before it. Tests use it to deliver a signal during a known step.
   */
  atStep?: (step: FinalStep) => void | Promise<void>;
}

/** The last steps of a run (RunOptions.atStep). `swap` is called once the run is committed to swapping. */
export type FinalStep = 'mark-complete' | 'save-row-cache' | 'swap';

/** Takes the prefix's lock (or fails at once naming its holder, creating nothing) and runs under it. */
export async function runIndexing(options: RunOptions): Promise<RunSummary> {
  const prefix = options.indexPrefix ?? '';
  if (!INDEX_PREFIX_PATTERN.test(prefix)) throw new IndexingError(`invalid index prefix "${prefix}"`);
  const loaded = await loadManifest(options.manifestPath);
  await assertSourcesFit(loaded.path, loaded.manifest);
  const generation = newGeneration();
  const lock = await acquireRunLock(
    options.client,
    prefix,
    { operation: 'index', generation },
    { lease: options.lease, log: options.log },
  );
  try {
    return await runLocked(options, { prefix, generation, manifestPath: loaded.path, manifest: loaded.manifest, lock });
  } finally {
    await lock.release();
  }
}

interface LockedRun {
  prefix: string;
  generation: string;
  manifestPath: string;
  manifest: Manifest;
  lock: RunLock;
}

async function runLocked(options: RunOptions, locked: LockedRun): Promise<RunSummary> {
  const started = Date.now();
  const log = options.log ?? silentLogger;
  const keep = options.keep ?? 2;
  const maxRejectRatio = options.maxRejectRatio ?? 0.01;
  const client = options.client;
  const { prefix, generation, manifestPath, manifest, lock } = locked;

  await assertAliasNamesFree(client, prefix);
  await assertLayoutFits(client, options.layout);
  const previousGeneration = (await liveGeneration(client, prefix)) ?? null;
  const before = await listGenerations(client, prefix);
  // Decided once, at the start: after the swap "the newest generation before live" may be one rolled away from.
  const protect = [generation, ...rollbackChain(before, previousGeneration)];
  // With the lock held no other run is in flight: incomplete generations are debris of killed runs.
  const orphansRemoved = await removeOrphans(client, before, protect);
  if (orphansRemoved.length) log.warn({ generations: orphansRemoved }, 'removed incomplete generations of killed runs');
  await liftLeftWriteBlocks(client, prefix, generationIndexesIn(before), log);

  const rejectsPath = resolve(options.rejectsPath ?? `rejects/${generation}.jsonl`);
  const rejects = new RejectsWriter(rejectsPath);
  const progress = createProgress({ mode: options.progress ?? 'auto' });
  // Losing the lock (a stall longer than the lease) aborts the run like a signal does.
  const stop = options.signal ? AbortSignal.any([options.signal, lock.lostSignal]) : lock.lostSignal;
  const abort = watchAbort(stop, options.handleSignals ?? true, log);
  const signal = abort.signal;

  const created: string[] = [];
  let swapped = false;
  const rowCache = runRowCache(manifest, options.rowCacheDir);
  const rows = addressRowsOf(rowCache);
  const run = new RunContext({
    client,
    manifest,
    generation,
    prefix,
    rejects,
    progress,
    signal,
    tuning: options.tuning,
    log,
    rows,
  });
  const indexes = Object.fromEntries(INDEX_KINDS.map((k) => [k, run.index(k)])) as Record<IndexKind, string>;
  const summary = (problems: string[], pruned: PruneResult = { pruned: [], orphans: [] }): RunSummary => {
    return {
      ok: problems.length === 0,
      generation,
      prefix,
      manifest: manifestPath,
      indexes,
      aliasesSwapped: swapped,
      previousGeneration,
      pruned: pruned.pruned,
      orphansRemoved: [...orphansRemoved, ...pruned.orphans],
      levels: run.levels,
      streets: run.streets,
      places: run.places,
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
      await createGenerationIndex(client, index, kind, options.layout);
      created.push(index);
    }
    for (const level of AREA_LEVELS) await loadAreaLevel(run, level);
    await loadBuildings(run);
    await loadAddresses(run);
    await loadPlaces(run);
    progress.stop();
    await rejects.close();

    for (const kind of INDEX_KINDS) {
      if (signal.aborted) throw signal.reason;
      await finishGenerationIndex(client, run.index(kind), kind, options.layout);
    }
    await options.beforeVerify?.(indexes);
    const problems = await verifyGeneration(run, maxRejectRatio);
    if (problems.length) {
      throw new IndexingError(
        `generation ${generation} failed verification:\n  ${problems.join('\n  ')}`,
        summary(problems),
      );
    }
    if (signal.aborted) throw signal.reason;
    await options.atStep?.('mark-complete');
    await markGenerationComplete(run, manifestPath, updateBasisOf(run.cityRemap, 0));
    if (signal.aborted) throw signal.reason;
    await options.atStep?.('save-row-cache');
    await saveRowCache(rowCache, { prefix, generation, log }, rows);
    // A run that stalled past its lease may have lost the lock to another run: then it must not swap.
    await lock.assertHeld();
    // A signal up to the swap aborts the run (swapAndPrune checks it last); from the swap on it lets the run finish.
    const pruned = await swapAndPrune(
      { client, prefix, generation, log },
      { previousGeneration, lock, keep, protect, abort, beforeSwap: () => options.atStep?.('swap') },
      () => (swapped = true),
    );
    await pruneRowCachesOf(client, rowCache.dir, prefix, log);
    return summary([], pruned);
  } catch (error) {
    throw await failedRun(
      { client, prefix, generation, log },
      { error, swapped, created, progress, rejects, summary, what: 'run' },
    );
  } finally {
    abort.release();
  }
}
