/**
 * What a run derives as it loads and later levels read: the hierarchy parents are resolved in, the lookup tables, what
 * the address stream tells the places, the streets built from the addresses and the derived cities' folds.
 */
import type { ParentIds, StreetDoc } from '../../core/elasticsearch/documents.js';
import { PlaceAccumulator } from '../derived/placeAccumulator.js';
import type { PlacePoint } from '../derived/placeDocuments.js';
import { Hierarchy } from '../records/hierarchy.js';
import { LookupTables } from '../records/lookupTables.js';

export class DerivationState {
  /** What the address stream tells the places (addresses per area, streets' extents, postcodes). */
  readonly placeAccumulator = new PlaceAccumulator();
  /** The streets built from the addresses, for the places: made anew as they are read (StreetAccumulator.reader). */
  builtStreets: Iterable<StreetDoc> = [];
  /** OpenStreetMap's place nodes that are places of their own (indexer/levelLoaders/osmFeatures.ts). */
  readonly pointPlaces: PlacePoint[] = [];
  readonly hierarchy = new Hierarchy();
  readonly lookups = new LookupTables();
  /** The derived-city groups folded into another city, with its parents (their addresses moved to it), once loaded. */
  cityRemap: ReadonlyMap<string, ParentIds> = new Map();
}
