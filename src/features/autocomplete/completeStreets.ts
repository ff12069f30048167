/**
 * A street keystroke answered from an earlier, shorter one, without a search. Pure.
 *
 * The exact street round (streetPrefixRequest) asks for `size` streets. When fewer come back, they are every street
 * its filter matches: the answer is complete. Every street a longer text matches is among them: a word tail that
 * starts with `mekelw` starts with `mekel`, a glued name that starts with `vandermol` starts with `vandermo`. So the
 * longer text's answer is the part of the shorter one it matches, with the quality the search would have scored.
 * The repository ranks it as it ranks a search's hits (quality, distance, size, label).
 *
 * A box's keystrokes come one after another, so the keystroke before is usually such an answer once a street's name
 * is rare enough. On the bench's keystrokes (bulk data), 64 % of the street keystrokes past the third character
 * find one.
 *
 * The rules below mirror streetPrefixRequest's filter and constant scores, one for one. The integration test
 * `autocompleteRefine.test.ts` checks on the sample that both give the same answer to every prefix of every street.
 */
import {
  matchesGlued,
  nearFocusOnly,
  type Quality,
  type StreetHit,
  streetText,
  SHORT_PREFIX_LENGTH,
} from './autocompleteBodies.js';
import type { StreetPrefixQuery } from './autocompleteInput.js';

/** Every street the exact round matched for one text (fewer than it asked for), in the order it found them. */
export interface CompleteStreets {
  /** streetText of the request. */
  text: string;
  /** Whether it also matched the glued name (matchesGlued). */
  glued: boolean;
  /** Whether the hits carry their sampled points (a focus needs them to place and rank a street). */
  points: boolean;
  streets: StreetHit[];
}

/** A street of a refined answer and the quality the exact round would have given it. */
export interface RefinedStreet {
  doc: StreetHit;
  quality: Quality;
}

/** The exact round's answer as a complete one, or undefined when it may have left streets out. */
export function completeStreets(q: StreetPrefixQuery, streets: StreetHit[]): CompleteStreets | undefined {
  // A full page may have left streets out; near the focus only, the streets farther away were left out.
  if (streets.length >= q.size || nearFocusOnly(q)) return undefined;
  return { text: streetText(q), glued: matchesGlued(q), points: q.focus !== undefined, streets };
}

/**
 * The texts whose complete answer can hold this one's, longest first: each shorter prefix of its text, past the
 * characters up to which a focused answer keeps only the streets near it.
 */
export function shorterTexts(q: StreetPrefixQuery): string[] {
  const text = streetText(q);
  const out: string[] = [];
  for (let end = text.length - 1; end > SHORT_PREFIX_LENGTH; end--) {
    if (text[end - 1] !== ' ') out.push(text.slice(0, end));
  }
  return out;
}

/**
 * The answer to `q` from a complete shorter answer: its streets that `q` matches, with their quality; undefined when
 * the complete answer cannot hold `q`'s (it matched no glued name where `q` does, or has no points where `q` has a
 * focus), or when `q` asks for fewer streets than match (the search would have picked which by its own order).
 */
export function refine(complete: CompleteStreets, q: StreetPrefixQuery): RefinedStreet[] | undefined {
  const text = streetText(q);
  const glued = matchesGlued(q);
  if (!text.startsWith(complete.text) || (glued && !complete.glued) || (q.focus && !complete.points)) return undefined;
  const out: RefinedStreet[] = [];
  for (const doc of complete.streets) {
    if (matchesStreet(doc, text, glued ? q.key : undefined)) out.push({ doc, quality: streetQuality(doc, q.key) });
  }
  return out.length < q.size ? out : undefined;
}

/** streetPrefixRequest's filter: a word tail in any language starts with the text, or the glued name with the key. */
export function matchesStreet(doc: StreetHit, text: string, gluedKey: string | undefined): boolean {
  const startsWithText = (tail: string) => tail.startsWith(text);
  return (
    doc.street_words.some(startsWithText) ||
    (doc.other_street_words?.some(startsWithText) ?? false) ||
    (gluedKey !== undefined && doc.street_key.startsWith(gluedKey))
  );
}

/** streetPrefixRequest's constant scores: the name (in any language) is the key, starts with it, or neither. */
export function streetQuality(doc: StreetHit, key: string): Quality {
  const keys = [doc.street_key, ...(doc.other_street_keys ?? [])];
  if (keys.includes(key)) return 'exact';
  if (keys.some((k) => k.startsWith(key))) return 'starts';
  return 'word';
}
