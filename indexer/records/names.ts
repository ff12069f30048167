/**
 * Names in several languages (pure): an area's or a street's `names` ({"nl": "Elsene", "fr": "Ixelles"}) and the
 * normalised keys the other-language names add, so every one is searchable with the same normaliser as the
 * primary name. One place for both areas and streets.
 */

/** Language code -> the name in that language. */
export type Names = Record<string, string>;

/**
 * The names (in order) whose normalised key differs from the primary name's and from each other's: what a
 * document carries besides its primary name. Empty when every name normalises to the primary one (Anderlecht in
 * French, Dutch and German).
 */
export function otherNames(primaryKey: string, names: Iterable<string>, normalise: (name: string) => string): string[] {
  const seen = new Set<string>([primaryKey]);
  const out: string[] = [];
  for (const name of names) {
    const key = normalise(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}
