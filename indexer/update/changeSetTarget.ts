/**
 * `update`'s target (pipeline/runGeneration.ts): a change set on a clone of the live generation. Every document is
 * computed exactly as a full run computes it, but the new generation starts as a `_clone` of the live one and only the
 * documents whose content digest differs are written to it; live documents the snapshot no longer produces are
 * deleted. `--dry-run` computes the change set and writes nothing (no lock, no index, no alias).
 */
import type { Client } from '@elastic/elasticsearch';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { LiveFolds } from '../derived/liveFolds.js';
import { UntouchedDocuments } from '../derived/untouchedDocuments.js';
import type { UpdateWrites } from '../execution/runContext.js';
import type { RunSummary } from '../execution/summary.js';
import { finishGenerationIndex } from '../generations/generationIndexes.js';
import type { UpdateBasis } from '../pipeline/completion.js';
import type { Generation, GenerationTarget } from '../pipeline/runGeneration.js';
import type { RunOptions } from '../pipeline/runOptions.js';
import type { AddressRows } from '../rows/addressRows.js';
import { ChangeSet } from './changeSet.js';
import { deleteDocuments } from './deleteDocuments.js';
import { ChangeLimitError, type KindCounts } from './kindChanges.js';
import { liveBasis, liveCityNames, liveFoldTargets, type LiveSide, startLiveSide } from './liveGeneration.js';
import { planUpdate, type RowCounts } from './planUpdate.js';
import { bySourceId, liveSourceIds } from './sourceIdChanges.js';
import { UpdateRefusedError } from './updateErrors.js';

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

/** What the update learns as it goes, for its summary. */
interface UpdateState {
  live: string;
  basis: UpdateBasis;
  liveSide?: LiveSide;
  changes?: ChangeSet;
  writes?: UpdateWrites;
  refused: string[];
  bySource: KindCounts | null;
  rowCounts: RowCounts;
  rows?: AddressRows | undefined;
}

export function changeSetTarget(options: UpdateOptions): GenerationTarget<UpdateSummary> {
  const dryRun = options.dryRun ?? false;
  const maxChangeRatio = options.maxChangeRatio ?? 0.1;
  const state: UpdateState = {
    live: '',
    basis: { folded_cities: [], update_serial: 0 },
    refused: [],
    bySource: null,
    rowCounts: { readInFull: 'not decided' },
  };
  const target: GenerationTarget<UpdateSummary> = {
    operation: 'update',
    dryRun,
    async begin(client: Client, prefix: string) {
      ({ live: state.live, basis: state.basis } = await liveBasis(client, prefix));
      return state.live;
    },
    started: ({ generation, prefix, manifestPath }) => [
      { generation, prefix, live: state.live, dryRun, manifest: manifestPath },
      'update started',
    ],
    open: (run) => openChangeSet(run, state, { dryRun, maxChangeRatio }),
    loaded: (run) => settleChangeSet(run, state, dryRun, (base) => target.summary(base, run)),
    async finish(run, kind) {
      await deleteDocuments(run.client, run.indexes[kind], (state.changes as ChangeSet).removedIds(kind));
      await finishGenerationIndex(run.client, run.indexes[kind], kind, options.layout, { forceMerge: false });
    },
    updateSerial: () => state.basis.update_serial + 1,
    summary: (base, run) => updateSummary(base, run, state, { dryRun, maxChangeRatio }),
    async failed(error, run) {
      await state.liveSide?.settled();
      if (!(error instanceof ChangeLimitError)) return error;
      state.refused = [
        `${error.message}, above --max-change-ratio ${maxChangeRatio}: refused before the snapshot was read to its end`,
      ];
      return new UpdateRefusedError(
        `update refused:\n  ${state.refused[0]}`,
        target.summary(run.summary(state.refused), run),
      );
    },
  };
  return target;
}

/** Starts the live side (digests read, indexes cloned) and plans the rows and the change set the loaders write by. */
async function openChangeSet(
  run: Generation,
  state: UpdateState,
  settings: { dryRun: boolean; maxChangeRatio: number },
): Promise<{ rows: AddressRows | undefined; update: UpdateWrites }> {
  const { client, prefix, generation, manifest, rowCache, log, checkAbort } = run;
  const { live, basis } = state;
  const { dryRun, maxChangeRatio } = settings;
  // Elasticsearch reads the live digests and clones while the rows are planned here.
  const liveSide = startLiveSide(client, { prefix, live, generation }, run.created, { dryRun, checkAbort });
  state.liveSide = liveSide;
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
  state.rowCounts = planned.rowCounts;
  state.rows = planned.rows;
  state.changes = planned.changes;
  run.timings.planRows = planned.planMs;
  run.timings.liveDigestsAndCloneAfterPlan = planned.waitMs;
  state.writes = { policy: planned.changes, untouched: new UntouchedDocuments(), kept: {} };
  return { rows: planned.rows, update: state.writes };
}

/** The change set's refusals and its count by source id; a dry run ends here, a refused change set throws. */
async function settleChangeSet(
  run: Generation,
  state: UpdateState,
  dryRun: boolean,
  summary: (base: RunSummary) => UpdateSummary,
): Promise<UpdateSummary | undefined> {
  const changes = state.changes as ChangeSet;
  state.refused = changes.refusals();
  if (!state.refused.length && changes.addedSourceIds.size) {
    const removed = changes.removedIds('addresses');
    const index = generationIndexName(run.prefix, 'addresses', state.live);
    const removedKeys = await liveSourceIds(run.client, index, removed);
    state.bySource = bySourceId(changes.counts().addresses, changes.addedSourceIds, removedKeys);
  }
  if (dryRun) return summary(run.summary(state.refused));
  if (state.refused.length) {
    throw new UpdateRefusedError(
      `update refused:\n  ${state.refused.join('\n  ')}`,
      summary(run.summary(state.refused)),
    );
  }
  return undefined;
}

/** The run's summary with the change set's own fields, in the order the summary has always printed them. */
function updateSummary(
  base: RunSummary,
  run: Generation,
  state: UpdateState,
  settings: { dryRun: boolean; maxChangeRatio: number },
): UpdateSummary {
  const { ok, levels, streets, places, rejects, problems, durationMs, addressesPerSecond, peakRssMb, ...head } = base;
  const { rowCounts, rows } = state;
  return {
    ok,
    mode: 'update',
    dryRun: settings.dryRun,
    ...head,
    maxChangeRatio: settings.maxChangeRatio,
    changes: state.changes ? state.changes.counts() : null,
    addressesBySourceId: state.bySource,
    refused: state.refused,
    levels,
    streets,
    places,
    rejects,
    problems,
    durationMs,
    addressesPerSecond,
    peakRssMb,
    untouched: { ...state.writes?.kept },
    timingsMs: { ...run.timings, ...run.tallies.stageMs },
    rows:
      'replayed' in rowCounts
        ? { ...rowCounts, derivations: { reused: rows?.memo.hits ?? 0, made: rows?.memo.misses ?? 0 } }
        : rowCounts,
  };
}
