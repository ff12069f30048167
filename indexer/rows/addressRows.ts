/**
 * A run's address rows (indexer/rows/): the row cache it writes for the generation it builds and, for `update`, the
 * plan of which rows of the snapshot it replays from the live generation's cache instead of deriving them again.
 */
import type { DerivationMemo } from './derivationMemo.js';
import type { RowCacheBuilder } from './rowCacheBuilder.js';
import type { RowPlan } from './rowPlan.js';

export interface AddressRows {
  builder: RowCacheBuilder;
  /** The run's dear derivations, taken over from the live generation's where `update` replays its rows. */
  memo: DerivationMemo;
  plan?: RowPlan | undefined;
  /** Per row of the plan's cache: the index of its document among the live addresses' digests. */
  liveIndex?: Int32Array | undefined;
  /** A live document replayed, with the version it would have been sent with. */
  replayed?: ((liveIndex: number, version: number) => void) | undefined;
}
