/**
 * One address source read by `update` under a row plan (indexer/rows/rowPlan.ts): a row the live generation already
 * holds is replayed from its row cache (counted, accumulated into cities, streets and places exactly where a full
 * read would, its document left as it is); every other row, parsed by the plan, is derived the full way.
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { LiveFolds } from '../derived/liveFolds.js';
import type { LoadItem } from '../execution/bulkLoader.js';
import { displayPath, type ReadRecord, type RunContext } from '../execution/runContext.js';
import type { AddressSource } from '../manifest/manifestSources.js';
import type { Parents } from '../records/records.js';
import type { AddressRows } from '../rows/addressRows.js';
import type { ReplayedAddress, ReplayedRows } from '../rows/addressRowData.js';
import { digestBytes } from '../rows/rawCsvRecords.js';
import type { SourceRows } from '../rows/rowCache.js';
import type { ParsedRow, RowPlan, SourcePlan } from '../rows/rowPlan.js';
import type { UntouchedDocuments } from '../derived/untouchedDocuments.js';

/** What the street, place and derived-city accumulators take of an address, its parents set. */
export type AccumulatedAddress = ReplayedAddress & Pick<AddressDoc, keyof Parents>;

export interface ReplayParts {
  rows: AddressRows;
  plan: SourcePlan;
  derive: (
    read: ReadRecord,
    sourceRows: SourceRows | undefined,
    hi: number,
    lo: number,
  ) => Promise<LoadItem<AddressDoc> | undefined>;
  accumulate: (doc: AccumulatedAddress, parents: Parents) => number;
  /** The live cache's rows read back (one for all sources: each distinct group parsed once). */
  replayedRows: ReplayedRows;
  /** Rows replayed so far (the loader counts them as documents indexed). */
  replayed: { count: number };
  /** The live generation's derived-city folds (update): a replayed address of a folded group is noted. */
  folds: LiveFolds | undefined;
}

export async function* replaySource(
  ctx: RunContext,
  source: AddressSource,
  parts: ReplayParts,
): AsyncGenerator<LoadItem<AddressDoc>> {
  const { rows, plan, derive, accumulate, replayedRows: replayed, replayed: tally, folds } = parts;
  const cache = rows.plan?.cache;
  if (!cache) return;
  const { scan } = plan;
  const { summary, origin } = ctx.addSource('addresses', displayPath(source.file));
  const header = { ...digestBytes(scan.header) };
  const sourceRows = rows.builder.beginSource(source.file, header.hi, header.lo);
  const joined = cache.columns.joined;
  for (let i = 0; i < scan.count; i++) {
    const r = plan.replay[i] as number;
    if (r >= 0) {
      const { doc, parents } = replayed.address(r);
      ctx.countRead('addresses', summary);
      if (joined[r]) summary.streetNamesJoined = (summary.streetNamesJoined ?? 0) + 1;
      const version = accumulate(doc as AccumulatedAddress, parents);
      if (folds?.has(parents.city_id)) folds.note(cache.docId(r), parents.city_id, version);
      rows.replayed?.(rows.liveIndex?.[r] as number, version);
      rows.builder.replayRecord(sourceRows, r, version);
      tally.count++;
      continue;
    }
    const row = plan.parsed.get(i) as ParsedRow;
    if (!(await ctx.accept('addresses', source, summary, row.item))) continue;
    const out = await derive({ item: row.item, summary, origin }, sourceRows, row.hi, row.lo);
    if (out) yield out;
  }
  summary.encoding = 'utf-8';
  summary.lines = scan.physicalLines;
}

/** Each live row the plan did not replay (its row changed or went) touches the streets and postcodes it was in. */
export function touchRowsNotReplayed(plan: RowPlan, replayedRows: ReplayedRows, untouched: UntouchedDocuments): void {
  const cache = plan.cache;
  const replayed = new Uint8Array(cache.size);
  for (const source of plan.sources) for (const r of source.replay) if (r >= 0) replayed[r] = 1;
  for (let r = 0; r < cache.size; r++) {
    if (!replayed[r] && cache.replayable(r)) untouched.touch(replayedRows.address(r).doc);
  }
}
