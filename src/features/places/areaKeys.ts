/**
 * The name keys of the areas type-ahead offers (placeTypes.ts `whileTyping`), held in memory: whether the place
 * query's first round (exact and prefix names, no typos: placeQueries.ts nameClause) can find any of them for a
 * text, answered without asking Elasticsearch. A keystroke whose text starts no area's name (`mekelw`: most
 * keystrokes of a street) needs no place search at all, and one that only begins an area's name (`delf`) needs it only
 * where such an area can show (autocompleteAreas.ts). A reading with a qualifier (`plein delf`: `delf` in a place
 * called `plein`) counts only for the areas that qualifier names an ancestor of, as the round's filter would: the
 * words of a multi-word street begin some area's name far more often than they name one of its places. Pure.
 */
import { MIN_PREFIX_LENGTH, type PlaceHit, type PlaceReading } from './placeQueries.js';
import { LaterWordAreas } from './laterWordAreas.js';

/** What a text can name among the areas (AreaKeys.naming). */
export type AreaNaming = 'none' | 'prefix' | 'exact';

/** One area as the place query's first round sees it: its name keys and its qualifier keys (its ancestors' names). */
export interface AreaNames {
  keys: readonly string[];
  qualifiers: readonly string[];
}

/** Distinct keys in code-unit order (the keys starting with a text are one run of it), searched by halves. */
class SortedKeys {
  private readonly sorted: string[];

  constructor(keys: Iterable<string>) {
    this.sorted = [...new Set(keys)].sort();
  }

  get size(): number {
    return this.sorted.length;
  }

  /** `exact` when `key` is one of the keys, `prefix` when, from MIN_PREFIX_LENGTH characters, it begins one. */
  reach(key: string): AreaNaming {
    const found = this.sorted[this.firstNotBefore(key)];
    if (found === undefined) return 'none';
    if (found === key) return 'exact';
    return key.length >= MIN_PREFIX_LENGTH && found.startsWith(key) ? 'prefix' : 'none';
  }

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

export class AreaKeys {
  private readonly all: SortedKeys;
  /** Per qualifier key, the name keys of the areas it qualifies (the first round's qualifier filter, a terms query). */
  private readonly byQualifier = new Map<string, SortedKeys>();

  /** `laterWords`: the cities by a later word of their names, which no place search finds (laterWordAreas.ts). */
  constructor(
    areas: Iterable<AreaNames>,
    readonly laterWords: LaterWordAreas<PlaceHit> = new LaterWordAreas([]),
  ) {
    const list = [...areas];
    this.all = new SortedKeys(list.flatMap((a) => a.keys));
    const qualified = new Map<string, string[]>();
    for (const area of list) {
      for (const q of new Set(area.qualifiers)) {
        const keys = qualified.get(q) ?? [];
        keys.push(...area.keys);
        qualified.set(q, keys);
      }
    }
    for (const [q, keys] of qualified) this.byQualifier.set(q, new SortedKeys(keys));
  }

  get size(): number {
    return this.all.size;
  }

  /** Whether an area's key is `key`, or, from MIN_PREFIX_LENGTH characters (the prefix tier's rule), starts so. */
  matches(key: string): boolean {
    return this.all.reach(key) !== 'none';
  }

  /**
   * Whether any reading's name could match an area: if none can, the first round finds nothing (a qualifier only
   * narrows a reading's matches further).
   */
  mayName(readings: readonly PlaceReading[]): boolean {
    return this.naming(readings) !== 'none';
  }

  /**
   * The best tier of the place query's first round any reading can reach: `exact` when a reading's key is the key of
   * an area its qualifier (if any) names an ancestor of (the exact tier: an area named exactly so may be found),
   * `prefix` when a key only begins one (only the prefix tier can match), `none` when neither (the round finds
   * nothing: its qualifier filter is the same terms query on the same keys).
   */
  naming(readings: readonly PlaceReading[]): AreaNaming {
    let best: AreaNaming = 'none';
    for (const r of readings) {
      for (const keys of this.keysFor(r.qualifierKeys)) {
        for (const k of r.keys) {
          const reach = keys.reach(k);
          if (reach === 'exact') return 'exact';
          if (reach === 'prefix') best = 'prefix';
        }
      }
    }
    return best;
  }

  /** The name keys a reading with these qualifier keys can match: every area's without, else those qualified so. */
  private keysFor(qualifierKeys: readonly string[]): SortedKeys[] {
    if (qualifierKeys.length === 0) return [this.all];
    return qualifierKeys.flatMap((q) => this.byQualifier.get(q) ?? []);
  }
}
