/**
 * The city names free text is read against: the normalised city keys the address index holds (data-driven,
 * so a Belgian or a newly loaded city is known as soon as it is indexed). Pure: built from a key list.
 */
import { editDistance } from '../../../core/text/editDistance.js';
import { normaliseText } from '../../../core/text/normalise.js';
import { typoTolerance } from '../../../core/text/readingRules.js';

export interface CityMatch {
  /** The indexed city key (what the city filter matches). */
  key: string;
  /** 0 for the name as indexed (after normalisation), else the edit distance of the typo. */
  distance: number;
}

export class KnownCities {
  private readonly keys: ReadonlySet<string>;
  /** By first letter: a typo after the first letter is the common case, and it bounds the scan. */
  private readonly byInitial = new Map<string, string[]>();
  /** First words of the known names ("den" of "den haag"). */
  private readonly firstWords = new Set<string>();
  /** Most words in one known name: how many trailing or leading words a reading may take as the city. */
  readonly maxWords: number;

  constructor(cityKeys: Iterable<string>) {
    this.keys = new Set([...cityKeys].filter(Boolean));
    let maxWords = 1;
    for (const key of this.keys) {
      const initial = key[0] as string;
      const list = this.byInitial.get(initial);
      if (list) list.push(key);
      else this.byInitial.set(initial, [key]);
      const words = key.split(' ');
      this.firstWords.add(words[0] as string);
      maxWords = Math.max(maxWords, words.length);
    }
    this.maxWords = maxWords;
  }

  get size(): number {
    return this.keys.size;
  }

  /** Whether some known name starts with this word. */
  startsWith(word: string): boolean {
    return this.firstWords.has(normaliseText(word));
  }

  /** The known city these words name, exactly or within a typo or two; undefined when none is close. */
  match(words: readonly string[]): CityMatch | undefined {
    const text = normaliseText(words.join(' '));
    if (!text) return undefined;
    if (this.keys.has(text)) return { key: text, distance: 0 };
    const max = typoTolerance(text.length);
    if (max === 0) return undefined;
    let best: CityMatch | undefined;
    for (const key of this.byInitial.get(text[0] as string) ?? []) {
      const distance = editDistance(text, key, max);
      if (distance <= max && (!best || distance < best.distance)) best = { key, distance };
    }
    return best;
  }
}
