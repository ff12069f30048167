/**
 * One kind's change set against the live generation, decided document by document as the run streams them: a
 * document is sent only when the live generation lacks it or holds other content (by content digest). Where
 * several documents share an id (merged addresses: the highest external version wins, mergePriority.ts), only a
 * new best candidate is considered, so what the new generation holds is what a full run would keep. Pure.
 */
import type { DigestTable } from './digestTable.js';

const SEEN = 1;
const DIFFERS = 2;
const WRITTEN = 4;

export interface KindCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

/** More new documents than the change limit allows: the snapshot is refused without reading further. */
export class ChangeLimitError extends Error {
  override name = 'ChangeLimitError';
}

export class KindChanges {
  private readonly state: Uint8Array;
  private readonly bestVersion: Float64Array;
  private readonly added = new Map<string, number | undefined>();
  private versionedOffers = 0;
  private versionedIds = 0;

  /**
   * @param addedLimit more new ids than this throws ChangeLimitError (bounds the memory a broken snapshot takes)
   * @param versionOffset added to every version sent, so each beats the version the live copy was written with
   */
  constructor(
    readonly kind: string,
    private readonly live: DigestTable,
    private readonly addedLimit = Infinity,
    private readonly versionOffset = 0,
  ) {
    this.state = new Uint8Array(live.size);
    this.bestVersion = new Float64Array(live.size);
  }

  /** The version to send the document with, or false when it is not to be sent. */
  offer(id: string, digest: string, version: number | undefined): number | undefined | false {
    const shifted = version === undefined ? undefined : version + this.versionOffset;
    if (version !== undefined) this.versionedOffers++;
    const i = this.live.indexOf(id);
    if (i < 0) {
      if (!this.added.has(id)) {
        if (this.added.size >= this.addedLimit) {
          throw new ChangeLimitError(
            `${this.kind}: more than ${this.addedLimit} documents added of ${this.live.size} live documents`,
          );
        }
        this.added.set(id, version);
        if (version !== undefined) this.versionedIds++;
        return shifted;
      }
      const best = this.added.get(id);
      if (version === undefined) return undefined;
      if (best !== undefined && version <= best) return false;
      this.added.set(id, version);
      return shifted;
    }
    const st = this.state[i] as number;
    if (version !== undefined) {
      if (!(st & SEEN)) this.versionedIds++;
      else if (version <= (this.bestVersion[i] as number)) return false;
      this.bestVersion[i] = version;
    }
    const differs = !this.live.digestEquals(i, digest);
    let next = (st | SEEN) & ~DIFFERS;
    if (differs) next |= DIFFERS;
    if (differs || st & WRITTEN) {
      this.state[i] = next | WRITTEN;
      return shifted;
    }
    this.state[i] = next;
    return false;
  }

  /**
   * A live document `update` replayed without producing it (indexer/rows/): the same content, seen, not sent. Its
   * rows are all replayed (a touched document's are all read again), so no offer competes with it.
   */
  replayed(i: number, version: number): void {
    this.versionedOffers++;
    const st = this.state[i] as number;
    if (!(st & SEEN)) this.versionedIds++;
    else if (version <= (this.bestVersion[i] as number)) return;
    this.bestVersion[i] = version;
    this.state[i] = st | SEEN;
  }

  /**
   * A document the run knows to be as the live one without its digest (an untouched street or place): seen,
   * unchanged, not sent. False when the live generation lacks it or it was offered already: then it is offered.
   */
  kept(id: string): boolean {
    const i = this.live.indexOf(id);
    if (i < 0 || (this.state[i] as number) & SEEN) return false;
    this.state[i] = SEEN;
    return true;
  }

  /** Whether the live generation lacks this id (so far an addition). */
  isAdded(id: string): boolean {
    return this.added.has(id);
  }

  /** Versioned documents that lost to another of the same id (a full run's `merged`). */
  get superseded(): number {
    return this.versionedOffers - this.versionedIds;
  }

  counts(): KindCounts {
    const c: KindCounts = { added: this.added.size, changed: 0, removed: 0, unchanged: 0 };
    for (const st of this.state) {
      if (!(st & SEEN)) c.removed++;
      else if (st & DIFFERS) c.changed++;
      else c.unchanged++;
    }
    return c;
  }

  /** Live documents the run did not produce: to delete from the new generation. */
  *removedIds(): Generator<string> {
    for (let i = 0; i < this.state.length; i++) if (!((this.state[i] as number) & SEEN)) yield this.live.idAt(i);
  }
}
