/**
 * What a run counts, whether a full run or `update`: per level, the streets and the places (the summary's figures),
 * and where the address stage's time went. Filled by the level loaders, read by the checks and the summary.
 */
import { emptyLevels, emptyPlaces, emptyStreets } from './summary.js';

export class RunTallies {
  readonly levels = emptyLevels();
  /** The streets index, built from the addresses (indexer/levelLoaders/streets.ts). */
  readonly streets = emptyStreets();
  /** The places index, built last (indexer/levelLoaders/places.ts). */
  readonly places = emptyPlaces();
  addressMs = 0;
  /** Where the address stage's time went (the address rows, derived cities, streets), for `update`'s summary. */
  readonly stageMs: Record<string, number> = {};
}
