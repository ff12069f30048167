/**
 * Answers to the first keystrokes, shared by every user: text of at most SHORT_PREFIX_MAX characters (once
 * normalised) is what every search box sends first, the same few hundred strings from everybody, and it is the
 * dearest keystroke for Elasticsearch (a one-letter prefix matches a tenth of the streets, all of them ranked).
 *
 * An answer is remembered per text, size, answer language, focus cell and index generation: a focus is moved to the
 * centre of its cell (FOCUS_CELL_DEGREES, about 1.1 km by 0.7 km here) for these keystrokes whether or not the
 * answer is cached, so a cached answer is exactly the one that would be computed; a new generation of the streets,
 * places or addresses index (a reindex) is a new key, and the old answers age out of the LRU. Concurrent identical
 * keystrokes share one computation; a failed one is not remembered.
 */
import { LRUCache } from 'lru-cache';
import type { IndexKind } from '../../../core/elasticsearch/documents.js';
import { normaliseText } from '../../../core/text/normalise.js';
import type { IndexGenerations } from '../../indexes/generations.js';

/** Normalised characters up to which an answer is shared. */
export const SHORT_PREFIX_MAX = 3;
/** The focus of a short keystroke is the centre of its cell of this many degrees of latitude and longitude. */
export const FOCUS_CELL_DEGREES = 0.01;
/** Answers remembered at most (about 10-20 KB each: a few tens of MB at worst). */
const MAX_ANSWERS = 2000;
/** The indexes an autocomplete answer reads (streets, areas by the places index; `a 1` is an address). */
const KINDS: readonly IndexKind[] = ['streets', 'places', 'addresses'];

/** Whether this text's answer is shared (SHORT_PREFIX_MAX characters or fewer, once normalised; not empty). */
export function isShortPrefix(q: string): boolean {
  const n = normaliseText(q).length;
  return n > 0 && n <= SHORT_PREFIX_MAX;
}

/** The centre of the focus cell a coordinate falls in (rounded to 6 decimals, as a request could give it). */
export function cellCentre(degrees: number): number {
  const centre = (Math.floor(degrees / FOCUS_CELL_DEGREES) + 0.5) * FOCUS_CELL_DEGREES;
  return Math.round(centre * 1e6) / 1e6;
}

export class ShortPrefixCache<T> {
  private readonly answers = new LRUCache<string, Promise<T>>({ max: MAX_ANSWERS });

  constructor(private readonly generations: Pick<IndexGenerations, 'of'>) {}

  /** The remembered answer for `key` in the live generations, else `compute()`'s (remembered unless it fails). */
  async get(key: string, compute: () => Promise<T>): Promise<T> {
    const live = await this.generations.of(KINDS);
    const full = `${live.join('|')}\n${key}`;
    const known = this.answers.get(full);
    if (known) return known;
    const answer = compute();
    this.answers.set(full, answer);
    answer.catch(() => {
      if (this.answers.get(full) === answer) this.answers.delete(full);
    });
    return answer;
  }
}
