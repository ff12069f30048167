/**
 * The complete street answers of recent keystrokes (completeStreets.ts), shared by every user, so the next keystroke
 * of a rare street's name needs no search. Kept per streets index generation: a reindex is a new key, and the old
 * answers age out of the LRU. An answer is remembered under the generation its hits came from (their `_index`), so
 * it never serves another generation's keystrokes, even in the second after an alias swap in which the generation
 * looked up is still the old one.
 */
import type { estypes } from '@elastic/elasticsearch';
import { LRUCache } from 'lru-cache';
import type { IndexGenerations } from '../../indexes/generations.js';
import { sources } from '../../indexes/paging.js';
import type { StreetHit } from './autocompleteBodies.js';
import type { StreetPrefixQuery } from './autocompleteInput.js';
import { completeStreets, type CompleteStreets, refine, type RefinedStreet, shorterTexts } from './completeStreets.js';

/**
 * Complete answers remembered at most, by count and by their estimated bytes on the heap (answerBytes), whichever
 * binds first. Fewer than `size` streets each, about 1.4 KB a street with its 16 points (7 KB an answer on the bench's
 * keystrokes, measured on the bulk data): 2,000 such answers are about 15 MB. An answer of long names near their
 * limit of streets is several times that, so the count alone let the cache grow to about 76 MB; the bytes keep it at
 * MAX_BYTES whatever the answers. A box's next keystroke comes within a second; at a thousand keystrokes a second, a
 * few hundred complete answers are filed a second.
 */
const MAX_ANSWERS = 2000;
export const MAX_BYTES = 16 * 1024 * 1024;

const ANSWER_BYTES = 800;
const STREET_BYTES = 300;
const STRING_BYTES = 16;
const POINT_BYTES = 48;

/**
 * The heap an answer takes, estimated from its shape without serialising it (measured with V8's heap on answers of
 * 1 to 9 streets of the bulk data's shape: within 20 %): an object and its fields, each string its length and a header,
 * each point an object of two numbers.
 */
export function answerBytes(answer: CompleteStreets): number {
  const text = (value: string | undefined) => (value === undefined ? 0 : STRING_BYTES + value.length);
  const texts = (values: readonly string[] | undefined) => (values ?? []).reduce((sum, v) => sum + text(v), 0);
  let bytes = ANSWER_BYTES + text(answer.text);
  for (const street of answer.streets) {
    bytes += STREET_BYTES + text(street.streetname) + text(street.city) + text(street.street_key);
    bytes += texts(street.street_words) + texts(street.other_street_keys) + texts(street.other_street_words);
    bytes += texts(Object.values(street.street_names ?? {}));
    bytes += POINT_BYTES * (1 + (street.points?.length ?? 0));
  }
  return bytes;
}

export class CompleteStreetCache {
  private readonly answers = new LRUCache<string, CompleteStreets>({
    max: MAX_ANSWERS,
    maxSize: MAX_BYTES,
    sizeCalculation: answerBytes,
  });

  constructor(private readonly generations: Pick<IndexGenerations, 'of'>) {}

  /** The live streets generation (cached a second by IndexGenerations); undefined when it cannot be looked up. */
  async generation(): Promise<string | undefined> {
    return (await this.generations.of(['streets']).catch(() => undefined))?.[0];
  }

  /** `q`'s answer from a complete answer to a shorter text in `generation`, if one is remembered and holds it. */
  find(generation: string, q: StreetPrefixQuery): RefinedStreet[] | undefined {
    const kinds = q.focus ? [true] : [false, true];
    for (const text of shorterTexts(q)) {
      for (const points of kinds) {
        const complete = this.answers.get(keyOf(generation, points, text));
        const refined = complete && refine(complete, q);
        if (refined) return refined;
      }
    }
    return undefined;
  }

  /**
   * The exact round's answer to `q`, remembered when its hits are every street it matches (not when a shard failed or
   * the search timed out: fewer hits then say nothing).
   */
  remember(generation: string, q: StreetPrefixQuery, res: estypes.SearchResponse<StreetHit>): void {
    if (res.timed_out || (res._shards?.failed ?? 0) > 0) return;
    const complete = completeStreets(q, sources(res.hits.hits));
    if (!complete) return;
    // The generation the hits came from; with none (nothing matched), the one looked up before the search.
    const from = res.hits.hits[0]?._index ?? generation;
    this.answers.set(keyOf(from, complete.points, complete.text), complete);
  }
}

const keyOf = (generation: string, points: boolean, text: string) => `${generation}\n${points ? 'p' : ''}\n${text}`;
