/**
 * The dear derivations of a run kept for the next one (a boundary's repaired geometry, a derived city's outline): each
 * result filed under a digest of everything it was derived from. `update` takes a result over from the live
 * generation's memo (kept in its row cache, rowCacheFile.ts) when the input is the same, instead of deriving it again;
 * the memo is only ever read under an equal row context (rowContext.ts: same manifest, side files and indexer code),
 * so the same input gives the same result. Each result is kept as its serialised bytes, taken when it is derived (a
 * later change to the object does not reach the memo) and read back as a fresh copy. Pure but for node:v8's
 * serialiser.
 */
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';

export type MemoEntries = Map<string, Uint8Array>;

export class DerivationMemo {
  /** What this run derived or took over: the next run's memo. */
  readonly entries: MemoEntries = new Map();
  hits = 0;
  misses = 0;

  /** `previous`: the live generation's memo, only when its rows were derived in the same context. */
  constructor(private readonly previous?: ReadonlyMap<string, Uint8Array>) {}

  /**
   * `derive()`'s result for `input` (everything the derivation reads besides constant code, as JSON-able data),
   * taken from the previous run's memo when it has it. `kind` names the derivation (one input, several kinds).
   */
  derive<T>(kind: string, input: unknown, derive: () => T): T {
    const key = keyOf(kind, input);
    if (key === undefined) return derive();
    const kept = this.previous?.get(key);
    if (kept) {
      this.hits++;
      this.entries.set(key, kept);
      return deserialize(kept) as T;
    }
    this.misses++;
    const value = derive();
    const bytes = serialised(value);
    if (bytes) this.entries.set(key, bytes);
    return value;
  }
}

/** The key of an input, or undefined for one JSON cannot write (a BigInt): such a derivation is not kept. */
function keyOf(kind: string, input: unknown): string | undefined {
  try {
    return `${kind}:${createHash('sha256').update(JSON.stringify(input)).digest('base64')}`;
  } catch {
    return undefined;
  }
}

function serialised(value: unknown): Uint8Array | undefined {
  try {
    return serialize(value);
  } catch {
    return undefined;
  }
}
