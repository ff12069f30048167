/** Counting by key (how often each postcode or city name occurs in a place) and reading back the most common. Pure. */

/** One more of `key`; empty keys are not counted. */
export function countInto(map: Map<string, number>, key: string): void {
  if (key) map.set(key, (map.get(key) ?? 0) + 1);
}

/** The key counted most often; on a tie the one that sorts first (stable across runs); "" for none. */
export function mostCommon(map: ReadonlyMap<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [key, n] of map) {
    if (n > bestCount || (n === bestCount && key < best)) {
      best = key;
      bestCount = n;
    }
  }
  return best;
}
