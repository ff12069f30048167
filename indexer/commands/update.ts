/**
 * `update`: a new snapshot of the manifest's sources applied as a change set. Every document is computed exactly as
 * a full run computes it (the same level loaders, derivations and order), but the new generation starts as a
 * `_clone` of the live one and only the documents whose content digest differs are written to it; live documents
 * the snapshot no longer produces are deleted. Then the same checks, completion mark, swap and prune as a full run,
 * under the same lock. `--dry-run` computes the change set and writes nothing (no lock, no index, no alias).
 */
import { failedRun, swapAndPrune } from '../pipeline/runEnding.js';
import { resolve } from 'node:path';
import { INDEX_PREFIX_PATTERN } from '../../core/config/rules.js';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { IndexingError } from '../execution/errors.js';
import { markGenerationComplete, updateBasisOf, verifyGeneration } from '../pipeline/completion.js';
import { LiveFolds } from '../derived/liveFolds.js';
import { type Logger, silentLogger } from '../base/logger.js';
import { createProgress } from '../execution/progress.js';
import { RejectsWriter } from '../execution/rejects.js';
import { watchAbort } from '../execution/runAbort.js';
import { RunContext } from '../execution/runContext.js';
import type { RunSummary } from '../execution/summary.js';
import { finishGenerationIndex, newGeneration } from '../generations/generationIndexes.js';
import { listGenerations } from '../generations/generations.js';
import { type PruneResult, removeOrphans, rollbackChain } from '../generations/pruning.js';
import { acquireRunLock, type RunLock } from '../generations/runLock.js';
import { generationIndexesIn, liftLeftWriteBlocks } from '../generations/writeBlocks.js';
import { loadAddresses } from '../levelLoaders/addresses.js';
import { loadAreaLevel } from '../levelLoaders/areas.js';
import { loadBuildings } from '../levelLoaders/buildings.js';
import { loadPlaces } from '../levelLoaders/places.js';
import { loadManifest } from '../manifest/manifest.js';
import { assertSourcesFit } from './preflight.js';
import { AREA_LEVELS } from '../base/levels.js';
import type { RunOptions } from './index.js';
import { ChangeSet } from '../update/changeSet.js';
import { deleteDocuments } from '../update/deleteDocuments.js';
import { ChangeLimitError, type KindCounts } from '../update/kindChanges.js';
import { liveBasis, liveCityNames, liveFoldTargets, type LiveSide, startLiveSide } from '../update/liveGeneration.js';
import { bySourceId, liveSourceIds } from '../update/sourceIdChanges.js';
import { UpdateRefusedError } from '../update/updateErrors.js';
import { planUpdate, type RowCounts } from '../update/planUpdate.js';
import type { AddressRows } from '../rows/addressRows.js';
import { runRowCache, saveRowCache } from '../rows/rowCacheRun.js';
import { pruneRowCachesOf } from '../pipeline/rowCachePruning.js';

export interface UpdateOptions extends Omit<RunOptions, 'beforeVerify'> {
  /** Compute and print the change set; write nothing. */
  dryRun?: boolean;
  /** Refuse a change set larger than this share of a source kind's live documents (default 0.1). */
  maxChangeRatio?: number;
}

export interface UpdateSummary extends RunSummary {
  mode: 'update';
  dryRun: boolean;
  maxChangeRatio: number;
  /** Per kind, against the live generation: documents added, changed (any field), removed, unchanged. */
  changes: Record<IndexKind, KindCounts> | null;
  /**
   * The addresses' change set by the official sources' ids where documents carry them (sourceIdChanges.ts): a
   * removed and an added document of one source id count as one changed address. Null when no address added has one.
   */
  addressesBySourceId: KindCounts | null;
  /** Why the change set was not applied (empty when it was, or would be under --dry-run). */
  refused: string[];
  /**
   * Streets and places no address change reached (indexer/derived/untouchedDocuments.ts): kept as the live generation
   * holds them, neither built into a digest nor sent. Counted unchanged in `changes` too.
   */
  untouched: Partial<Record<IndexKind, number>>;
  /** Where the time went: planning the rows, reading the live digests, cloning, computing and writing, finishing. */
  timingsMs: Record<string, number>;
  /**
   * The address rows: how many were replayed from the live generation's row cache and how many read the full way
   * (indexer/rows/), or why the whole snapshot was read the full way.
   */
  rows:
    | {
        replayed: number;
        read: number;
        /** Boundary repairs and derived-city outlines taken over from the live generation, and made again. */
        derivations: { reused: number; made: number };
      }
    | { readInFull: string };
}

/** 2^36: above any version mergePriority() gives (at most 7 × 2^32), so an update's versions beat the live ones. */
const VERSION_SPAN = 2 ** 36;

export async function runUpdate(options: UpdateOptions): Promise<UpdateSummary> {
  const prefix = options.indexPrefix ?? '';
  if (!INDEX_PREFIX_PATTERN.test(prefix)) throw new IndexingError(`invalid index prefix "${prefix}"`);
  const loaded = await loadManifest(options.manifestPath);
  await assertSourcesFit(loaded.path, loaded.manifest);
  const generation = newGeneration();
  const locked = { prefix, generation, manifestPath: loaded.path, manifest: loaded.manifest };
  if (options.dryRun) return updateLocked(options, { ...locked, lock: undefined });
  const lock = await acquireRunLock(
    options.client,
    prefix,
    { operation: 'update', generation },
    { lease: options.lease, log: options.log },
  );
  try {
    return await updateLocked(options, { ...locked, lock });
  } finally {
    await lock.release();
  }
}

interface Locked {
  prefix: string;
  generation: string;
  manifestPath: string;
  manifest: RunContext['manifest'];
  lock: RunLock | undefined;
}

async function updateLocked(options: UpdateOptions, locked: Locked): Promise<UpdateSummary> {
  const started = Date.now();
  const log: Logger = options.log ?? silentLogger;
  const client = options.client;
  const dryRun = options.dryRun ?? false;
  const maxChangeRatio = options.maxChangeRatio ?? 0.1;
  const maxRejectRatio = options.maxRejectRatio ?? 0.01;
  const { prefix, generation, manifestPath, manifest, lock } = locked;

  const { live, basis } = await liveBasis(client, prefix);
  const before = await listGenerations(client, prefix);
  const protect = [generation, ...rollbackChain(before, live)];
  const orphansRemoved = dryRun ? [] : await removeOrphans(client, before, protect);
  if (orphansRemoved.length) log.warn({ generations: orphansRemoved }, 'removed incomplete generations of killed runs');
  if (!dryRun) await liftLeftWriteBlocks(client, prefix, generationIndexesIn(before), log);

  const rejectsPath = resolve(options.rejectsPath ?? `rejects/${generation}.jsonl`);
  const rejects = new RejectsWriter(rejectsPath);
  const progress = createProgress({ mode: options.progress ?? 'auto' });
  const stops = [options.signal, lock?.lostSignal].filter((s): s is AbortSignal => s !== undefined);
  const abort = watchAbort(AbortSignal.any(stops), options.handleSignals ?? true, log);
  const signal = abort.signal;

  const created: string[] = [];
  let swapped = false;
  let changes: ChangeSet | undefined;
  let refused: string[] = [];
  let bySource: KindCounts | null = null;
  const run = (changeSet: ChangeSet | undefined) =>
    new RunContext({
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
      ...(changeSet ? { writes: changeSet } : {}),
    });
  const rowCache = runRowCache(manifest, options.rowCacheDir);
  let rowCounts: RowCounts = { readInFull: 'not decided' };
  let rows: AddressRows | undefined;
  let ctx = run(undefined);
  const indexes = Object.fromEntries(INDEX_KINDS.map((k) => [k, ctx.index(k)])) as Record<IndexKind, string>;
  const timings: Record<string, number> = {};
  const summary = (problems: string[], pruned: PruneResult = { pruned: [], orphans: [] }): UpdateSummary => ({
    ok: problems.length === 0,
    mode: 'update',
    dryRun,
    generation,
    prefix,
    manifest: manifestPath,
    indexes,
    aliasesSwapped: swapped,
    previousGeneration: live,
    pruned: pruned.pruned,
    orphansRemoved: [...orphansRemoved, ...pruned.orphans],
    maxChangeRatio,
    changes: changes ? changes.counts() : null,
    addressesBySourceId: bySource,
    refused,
    levels: ctx.levels,
    streets: ctx.streets,
    places: ctx.places,
    rejects: { path: rejects.written ? rejectsPath : null, count: rejects.count, byReason: { ...rejects.byReason } },
    problems,
    durationMs: Date.now() - started,
    addressesPerSecond: ctx.addressMs ? Math.round(ctx.levels.addresses.read / (ctx.addressMs / 1000)) : 0,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    untouched: { ...ctx.keptUntouched },
    timingsMs: { ...timings, ...ctx.stageMs },
    rows:
      'replayed' in rowCounts
        ? { ...rowCounts, derivations: { reused: rows?.memo.hits ?? 0, made: rows?.memo.misses ?? 0 } }
        : rowCounts,
  });

  let liveSide: LiveSide | undefined;
  try {
    log.info({ generation, prefix, live, dryRun, manifest: manifestPath }, 'update started');
    const checkAbort = () => {
      if (signal.aborted) throw signal.reason;
    };
    // Elasticsearch reads the live digests and clones while the rows are planned here.
    liveSide = startLiveSide(client, { prefix, live, generation }, created, { dryRun, checkAbort });
    const liveNames = await liveCityNames(client, prefix, live);
    const planned = await planUpdate(
      { client, prefix, live, manifest, rowCache, basis, liveSide, log },
      (digests) =>
        new ChangeSet(digests, {
          dryRun,
          maxChangeRatio,
          versionOffset: (basis.update_serial + 1) * VERSION_SPAN,
          liveFolds: new LiveFolds(liveFoldTargets(basis)),
          liveCityNames: liveNames,
        }),
    );
    ({ rowCounts, rows } = planned);
    changes = planned.changes;
    timings.planRows = planned.planMs;
    timings.liveDigestsAndCloneAfterPlan = planned.waitMs;
    ctx = run(changes);
    const loadStart = Date.now();
    let mark = loadStart;
    const lap = (name: string) => {
      timings[name] = Date.now() - mark;
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
    timings.computeAndWrite = Date.now() - loadStart;
    progress.stop();
    await rejects.close();

    refused = changes.refusals();
    if (!refused.length && changes.addedSourceIds.size) {
      const removed = changes.removedIds('addresses');
      const removedKeys = await liveSourceIds(client, generationIndexName(prefix, 'addresses', live), removed);
      bySource = bySourceId(changes.counts().addresses, changes.addedSourceIds, removedKeys);
    }
    if (dryRun) return summary(refused);
    if (refused.length) {
      throw new UpdateRefusedError(`update refused:\n  ${refused.join('\n  ')}`, summary(refused));
    }
    const finishStart = Date.now();
    for (const kind of INDEX_KINDS) {
      if (signal.aborted) throw signal.reason;
      await deleteDocuments(client, ctx.index(kind), changes.removedIds(kind));
      await finishGenerationIndex(client, ctx.index(kind), kind, options.layout, { forceMerge: false });
    }
    const problems = await verifyGeneration(ctx, maxRejectRatio);
    timings.finish = Date.now() - finishStart;
    if (problems.length) {
      throw new IndexingError(
        `generation ${generation} failed verification:\n  ${problems.join('\n  ')}`,
        summary(problems),
      );
    }
    if (signal.aborted) throw signal.reason;
    await options.atStep?.('mark-complete');
    await markGenerationComplete(ctx, manifestPath, updateBasisOf(ctx.cityRemap, basis.update_serial + 1));
    if (signal.aborted) throw signal.reason;
    await options.atStep?.('save-row-cache');
    await saveRowCache(rowCache, { prefix, generation, log }, rows);
    await lock?.assertHeld();
    // A signal up to the swap aborts the update (swapAndPrune checks it last); from the swap on it lets it finish.
    const pruned = await swapAndPrune(
      { client, prefix, generation, log },
      {
        previousGeneration: live,
        lock,
        keep: options.keep ?? 2,
        protect,
        abort,
        beforeSwap: () => options.atStep?.('swap'),
      },
      () => (swapped = true),
    );
    await pruneRowCachesOf(client, rowCache.dir, prefix, log);
    return summary([], pruned);
  } catch (caught) {
    await liveSide?.settled();
    let error = caught;
    if (error instanceof ChangeLimitError) {
      refused = [
        `${error.message}, above --max-change-ratio ${maxChangeRatio}: refused before the snapshot was read to its end`,
      ];
      error = new UpdateRefusedError(`update refused:\n  ${refused[0]}`, summary(refused));
    }
    throw await failedRun(
      { client, prefix, generation, log },
      { error, swapped, created, progress, rejects, summary, what: 'update' },
    );
  } finally {
    abort.release();
  }
}
