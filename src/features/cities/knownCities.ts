/**
 * The city names free text is read against: the normalised city keys the address index holds (data-driven,
 * so a Belgian or a newly loaded city is known as soon as it is indexed). Pure: built from a key list.
 */
import { editDistance } from '../../../core/text/editDistance.js';
import { normaliseText } from '../../../core/text/normalise.js';
import { typoTolerance } from '../../../core/text/readingRules.js';

/** A city's names per language, by its indexed key ("elsene" -> {"nl": "Elsene", "fr": "Ixelles"}). */
export type CityNames = ReadonlyMap<string, Readonly<Record<string, string>>>;

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
  /** Another language's key -> the indexed key ("ixelles" -> "elsene"); never shadows an indexed key. */
  private readonly aliases = new Map<string, string>();

  /**
   * `names`: the other-language names of indexed cities (the city areas' `names`), so "Bruxelles" reads as the
   * indexed "brussel" wherever a city is read.
   */
  constructor(
    cityKeys: Iterable<string>,
    readonly names: CityNames = new Map(),
  ) {
    this.keys = new Set([...cityKeys].filter(Boolean));
    for (const [key, byLanguage] of names) {
      if (!this.keys.has(key)) continue;
      for (const name of Object.values(byLanguage)) {
        const other = normaliseText(name);
        if (other && !this.keys.has(other) && !this.aliases.has(other)) this.aliases.set(other, key);
      }
    }
    let maxWords = 1;
    for (const key of [...this.keys, ...this.aliases.keys()]) {
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

  /** The indexed key of a city named in any language ("ixelles" -> "elsene"); other keys unchanged. */
  canonical(key: string): string {
    return this.aliases.get(key) ?? key;
  }

  /** Whether these words name a known city exactly (after normalisation, in any language): no typo tolerated. */
  namedExactly(words: readonly string[]): boolean {
    const text = normaliseText(words.join(' '));
    return text !== '' && (this.keys.has(text) || this.aliases.has(text));
  }

  /** The known city these words name, exactly or within a typo or two; undefined when none is close. */
  match(words: readonly string[]): CityMatch | undefined {
    const text = normaliseText(words.join(' '));
    if (!text) return undefined;
    if (this.keys.has(text)) return { key: text, distance: 0 };
    const alias = this.aliases.get(text);
    if (alias) return { key: alias, distance: 0 };
    const max = typoTolerance(text.length);
    if (max === 0) return undefined;
    let best: CityMatch | undefined;
    for (const key of this.byInitial.get(text[0] as string) ?? []) {
      const distance = editDistance(text, key, max);
      if (distance <= max && (!best || distance < best.distance)) best = { key: this.canonical(key), distance };
    }
    return best;
  }
}
