/**
 * Cities found by a later word of their name (`post` -> Ten Post, `willem` -> Oude Willem), held in memory beside the
 * area keys (areaKeyRepository.ts): the places index's name keys are whole names, so its search finds a city only by
 * the start of its name. A few hundred names on the bulk data; answered without asking Elasticsearch. Pure.
 */

/**
 * Characters from which a later word is matched: fewer (`po`) would put such a city before the many streets that
 * start so on the first keystrokes, where it is rarely what is being typed.
 */
export const LATER_WORD_MIN_LENGTH = 3;

export class LaterWordAreas<T> {
  /** Every later-word tail of every name (`ten post` -> `post`), in code-unit order, with its area. */
  private readonly tails: readonly { tail: string; area: T }[];

  /** `keys`: an area's normalised name keys (words separated by one space). */
  constructor(areas: Iterable<{ keys: readonly string[]; area: T }>) {
    const tails: { tail: string; area: T }[] = [];
    for (const { keys, area } of areas) {
      const own = new Set<string>();
      for (const key of keys) {
        const words = key.split(' ');
        for (let i = 1; i < words.length; i++) own.add(words.slice(i).join(' '));
      }
      for (const tail of own) tails.push({ tail, area });
    }
    this.tails = tails.sort((a, b) => (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
  }

  get size(): number {
    return this.tails.length;
  }

  /**
   * The areas a later word of whose names starts with `text` (normalised words; from LATER_WORD_MIN_LENGTH
   * characters), each once, at most `max`, in the order of their tails.
   */
  find(text: string, max: number): T[] {
    if (text.length < LATER_WORD_MIN_LENGTH || max <= 0) return [];
    const found: T[] = [];
    for (let i = this.firstNotBefore(text); i < this.tails.length; i++) {
      const { tail, area } = this.tails[i]!;
      if (!tail.startsWith(text)) break;
      if (!found.includes(area)) found.push(area);
      if (found.length === max) break;
    }
    return found;
  }

  private firstNotBefore(text: string): number {
    let lo = 0;
    let hi = this.tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tails[mid]!.tail < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
