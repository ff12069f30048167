/**
 * The name keys of the areas type-ahead offers (placeTypes.ts `whileTyping`), held in memory: whether the place
 * query's first round (exact and prefix names, no typos: placeQueries.ts nameClause) can find any of them for a
 * text, answered without asking Elasticsearch. A keystroke whose text starts no area's name (`mekelw`: most
 * keystrokes of a street) needs no place search at all, and one that only begins an area's name (`delf`) needs it only
 * where such an area can show (autocompleteAreas.ts). Pure.
 */
import { MIN_PREFIX_LENGTH, type PlaceHit, type PlaceReading } from './placeQueries.js';
import { LaterWordAreas } from './laterWordAreas.js';

/** What a text can name among the areas (AreaKeys.naming). */
export type AreaNaming = 'none' | 'prefix' | 'exact';

export class AreaKeys {
  /** Distinct, in code-unit order: the keys starting with a text are one run of it. */
  private readonly sorted: string[];

  /** `laterWords`: the cities by a later word of their names, which no place search finds (laterWordAreas.ts). */
  constructor(
    keys: Iterable<string>,
    readonly laterWords: LaterWordAreas<PlaceHit> = new LaterWordAreas([]),
  ) {
    this.sorted = [...new Set(keys)].sort();
  }

  get size(): number {
    return this.sorted.length;
  }

  /** Whether an area's key is `key`, or, from MIN_PREFIX_LENGTH characters (the prefix tier's rule), starts so. */
  matches(key: string): boolean {
    const at = this.firstNotBefore(key);
    const found = this.sorted[at];
    if (found === undefined) return false;
    return found === key || (key.length >= MIN_PREFIX_LENGTH && found.startsWith(key));
  }

  /**
   * Whether any reading's name could match an area: if none can, the first round finds nothing (a qualifier only
   * narrows a reading's matches further).
   */
  mayName(readings: readonly PlaceReading[]): boolean {
    return this.naming(readings) !== 'none';
  }

  /**
   * The best tier of the place query's first round any reading can reach: `exact` when a reading's key is an area's
   * key (the exact tier: an area named exactly so may be found), `prefix` when a key only begins one (only the
   * prefix tier can match), `none` when neither (the round finds nothing).
   */
  naming(readings: readonly PlaceReading[]): AreaNaming {
    let best: AreaNaming = 'none';
    for (const r of readings) {
      for (const k of r.keys) {
        if (this.sorted[this.firstNotBefore(k)] === k) return 'exact';
        if (this.matches(k)) best = 'prefix';
      }
    }
    return best;
  }

  /** The index of the first key not ordered before `key` (binary search). */
  private firstNotBefore(key: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.sorted[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
