/**
 * Edit distances between street keys, to build fair query sets: a typo query must stay closest to its own
 * street, and a "nonexistent" street must be at distance >= 3 from every real one.
 *
 * The distance is optimal string alignment (Damerau-Levenshtein without repeated edits of a substring), the
 * metric of Elasticsearch's fuzzy query with `transpositions: true`. It is never larger than plain
 * Levenshtein, so "OSA >= 3" is the stricter reading of "edit distance 3+".
 */
import { editDistance } from '../../../core/text/editDistance.js';

/** OSA distance of a and b, or max + 1 as soon as it is certain to exceed max (the API's own function). */
export function osaDistance(a: string, b: string, max: number): number {
  return editDistance(a, b, max);
}

/** Cheap lower bound of the edit distance: half the L1 distance of the letter histograms. */
function histogramBound(ha: Uint8Array, hb: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < ha.length; i++) sum += Math.abs((ha[i] as number) - (hb[i] as number));
  return Math.ceil(sum / 2);
}

function histogram(s: string): Uint8Array {
  const h = new Uint8Array(37);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const slot = c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? 26 + c - 48 : 36;
    h[slot] = Math.min(255, (h[slot] as number) + 1);
  }
  return h;
}

/** Every distinct street key, bucketed by length, answering "which keys lie within distance d of q". */
export class StreetKeyIndex {
  private readonly byLength = new Map<number, { key: string; hist: Uint8Array }[]>();
  readonly size: number;

  constructor(keys: Iterable<string>) {
    let n = 0;
    for (const key of new Set(keys)) {
      let bucket = this.byLength.get(key.length);
      if (!bucket) {
        bucket = [];
        this.byLength.set(key.length, bucket);
      }
      bucket.push({ key, hist: histogram(key) });
      n++;
    }
    this.size = n;
  }

  has(key: string): boolean {
    return (this.byLength.get(key.length) ?? []).some((e) => e.key === key);
  }

  /** Keys at distance <= max from q (q itself included when it is a key), closest first. */
  within(q: string, max: number): { key: string; distance: number }[] {
    const out: { key: string; distance: number }[] = [];
    const hq = histogram(q);
    for (let len = q.length - max; len <= q.length + max; len++) {
      for (const e of this.byLength.get(len) ?? []) {
        if (histogramBound(hq, e.hist) > max) continue;
        const d = osaDistance(q, e.key, max);
        if (d <= max) out.push({ key: e.key, distance: d });
      }
    }
    return out.sort((a, b) => a.distance - b.distance || a.key.localeCompare(b.key));
  }
}
