/**
 * The derived-city folds of the live generation, as `update` keeps them (derivedCities.ts folds a group of addresses
 * into another city once every address is read; the full run then moves the group's addresses to that city). An
 * address of a group the live generation folded is replayed or skipped as unchanged like any other: its live copy
 * already carries the city its group was folded into. Only where this run folds the group otherwise (into another
 * city, or not at all) are its addresses moved, by id, to what a full run writes. Pure.
 */
import type { ParentIds } from '../../core/elasticsearch/documents.js';

/** The live generation's folds: per group folded, the parents its addresses carry (undefined: not kept, as before). */
export type FoldTargets = ReadonlyMap<string, ParentIds | undefined>;

function sameParents(a: ParentIds, b: ParentIds): boolean {
  return (
    a.country_id === b.country_id &&
    a.province_id === b.province_id &&
    a.municipality_id === b.municipality_id &&
    a.city_id === b.city_id
  );
}

export class LiveFolds {
  /** Per address id of a live-folded group: that group and the version of the row that gave it. */
  private readonly noted = new Map<string, { group: string; version: number }>();

  constructor(private readonly live: FoldTargets) {}

  /** Whether the live generation folded this group (its addresses are noted). */
  has(group: string): boolean {
    return this.live.has(group);
  }

  /** An address of a live-folded group. Of rows sharing one id the highest version wins, as in Elasticsearch. */
  note(id: string, group: string, version: number): void {
    const before = this.noted.get(id);
    if (!before || version > before.version) this.noted.set(id, { group, version });
  }

  /**
   * Per address id: the parents it must carry now, for every noted address whose group this run folds otherwise than
   * the live generation did (`changed`: what changed() gave; `own`: an unfolded group's own parents).
   */
  moves(
    changed: ReadonlyMap<string, ParentIds | undefined>,
    own: (group: string) => ParentIds | undefined,
  ): Map<string, ParentIds> {
    const now = new Map<string, ParentIds>();
    for (const [group, after] of changed) {
      const target = after ?? own(group);
      if (target && this.live.has(group)) now.set(group, target);
    }
    const out = new Map<string, ParentIds>();
    if (!now.size) return out;
    for (const [id, { group }] of this.noted) {
      const target = now.get(group);
      if (target) out.set(id, target);
    }
    return out;
  }

  /**
   * The groups this run folds otherwise than the live generation (folded now and not then, then and not now, or into
   * another city), each with the parents this run folds it into (undefined: not folded now).
   */
  changed(remap: ReadonlyMap<string, ParentIds>): Map<string, ParentIds | undefined> {
    const out = new Map<string, ParentIds | undefined>();
    for (const [group, before] of this.live) {
      const after = remap.get(group);
      if (!(before && after && sameParents(before, after))) out.set(group, after);
    }
    for (const [group, after] of remap) if (!this.live.has(group)) out.set(group, after);
    return out;
  }
}
