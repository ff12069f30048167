/**
 * Which index generation is live behind an alias (the concrete index `<prefix>areas-<timestamp>`): what the
 * ETags of boundary and hierarchy answers are derived from, so a reindex (a new generation) changes them.
 *
 * Cached for GENERATION_TTL_MS: under load every request would otherwise add a round trip, while an alias
 * swap (a reindex, a rollback) happens rarely; for at most this long after one, ETags still name the old
 * generation (a client may get one extra 304 for data that just changed, or one extra full answer). Past half
 * its life an entry is looked up again in the background while it is still served, so under steady traffic no
 * request waits on that round trip (it used to hold every request of one moment each second); only the first
 * request after an idle second waits, as before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@elastic/elasticsearch';
import { BackendUnavailableError } from '../../core/domain/errors.js';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { elasticsearchCall } from '../elasticsearch/failures.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';

export const GENERATION_TTL_MS = 1000;

/** Alias -> the concrete index(es) an answer's reads must go to (see IndexGenerations.pinned). */
const pinnedReads = new AsyncLocalStorage<ReadonlyMap<string, string>>();

/**
 * The index a read of `alias` goes to: the generation pinned for the answer being built (IndexGenerations.pinned),
 * else the alias itself. The repositories of conditional answers name every index through it.
 */
export function indexFor(alias: string): string {
  return pinnedReads.getStore()?.get(alias) ?? alias;
}

interface CachedGeneration {
  generation: Promise<string>;
  /** Looked up at (ms of `now`): served until `at + ttl`, looked up again in the background from `at + ttl / 2`. */
  at: number;
  refreshing: boolean;
}

export class IndexGenerations {
  private readonly cache = new Map<IndexKind, CachedGeneration>();
  /** The last generation seen of each kind: a lookup answering another one is a new generation. */
  private readonly seen = new Map<IndexKind, string>();
  private readonly listeners = new Map<IndexKind, ((generation: string) => void)[]>();

  constructor(
    private readonly client: Client,
    private readonly indexPrefix: string,
    private readonly ttlMs = GENERATION_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live index names behind the given aliases, in the given order. */
  of(kinds: readonly IndexKind[]): Promise<string[]> {
    return Promise.all(kinds.map((kind) => this.live(kind)));
  }

  /**
   * Runs `read` with every read of these kinds (through indexFor) sent to the given generations rather than to the
   * aliases: an answer tagged with a generation (an ETag, a body-cache key) is built from exactly that generation,
   * even when the alias moved since the generation was looked up (the lookup is cached for up to `ttlMs`).
   */
  pinned<T>(kinds: readonly IndexKind[], generations: readonly string[], read: () => T): T {
    const pins = new Map<string, string>();
    kinds.forEach((kind, i) => {
      const generation = generations[i];
      if (generation) pins.set(aliasName(this.indexPrefix, kind), concreteIndexes(generation));
    });
    return pinnedReads.run(pins, read);
  }

  /**
   * `listener` is told each generation of `kind` once, when a lookup first sees it: before any request waiting on
   * that lookup goes on, so what is derived from a generation starts loading where the alias change is noticed.
   */
  onNewGeneration(kind: IndexKind, listener: (generation: string) => void): void {
    const list = this.listeners.get(kind);
    if (list) list.push(listener);
    else this.listeners.set(kind, [listener]);
  }

  private live(kind: IndexKind): Promise<string> {
    const now = this.now();
    const cached = this.cache.get(kind);
    if (cached && now < cached.at + this.ttlMs) {
      if (!cached.refreshing && now >= cached.at + this.ttlMs / 2) this.refreshAhead(kind, cached);
      return cached.generation;
    }
    // Concurrent requests share one lookup; a failed lookup is not cached.
    const entry: CachedGeneration = { generation: this.lookUp(kind), at: now, refreshing: false };
    this.cache.set(kind, entry);
    entry.generation.catch(() => {
      if (this.cache.get(kind) === entry) this.cache.delete(kind);
    });
    return entry.generation;
  }

  /** The entry keeps being served until the new lookup answers; a failed one leaves it to expire (and be retried). */
  private refreshAhead(kind: IndexKind, cached: CachedGeneration): void {
    cached.refreshing = true;
    const at = this.now();
    this.lookUp(kind).then(
      (generation) => {
        if (this.cache.get(kind) === cached) {
          this.cache.set(kind, { generation: Promise.resolve(generation), at, refreshing: false });
        }
      },
      () => {},
    );
  }

  private async lookUp(kind: IndexKind): Promise<string> {
    const alias = aliasName(this.indexPrefix, kind);
    // resolveIndex answers for an alias and for a plain index of that name alike (as searches do); a
    // missing name is index_not_found, which elasticsearchCall turns into BackendUnavailableError (503).
    const res = await elasticsearchCall(() => this.client.indices.resolveIndex({ name: alias }));
    const names = new Set([...res.aliases.flatMap((a) => a.indices), ...res.indices.map((i) => i.name)]);
    if (names.size === 0) throw new BackendUnavailableError(`${alias} resolves to no index`);
    const generation = [...names].sort().join('+');
    if (this.seen.get(kind) !== generation) {
      this.seen.set(kind, generation);
      for (const listener of this.listeners.get(kind) ?? []) listener(generation);
    }
    return generation;
  }
}

/** The index names behind an alias, as IndexGenerations names a generation (`a+b` when it points at two). */
export function concreteIndexes(generation: string): string {
  return generation.split('+').join(',');
}

/**
 * A value derived from one index generation (the area index, the building coverage): loaded lazily, shared by
 * concurrent requests, replaced when the alias points at a new generation; a failed load is retried next time.
 */
export class GenerationCache<T> {
  private current: { generation: string; value: Promise<T> } | undefined;

  constructor(
    private readonly generations: IndexGenerations,
    private readonly kind: IndexKind,
    private readonly load: (generation: string) => Promise<T>,
  ) {}

  /** Loads as soon as a generation is noticed, not on the first request that needs the value. */
  loadOnNewGeneration(): this {
    this.generations.onNewGeneration(this.kind, (generation) => {
      this.valueOf(generation).catch(() => {});
    });
    return this;
  }

  async get(): Promise<T> {
    const [generation] = await this.generations.of([this.kind]);
    if (!generation) throw new Error(`no ${this.kind} generation`);
    return this.valueOf(generation);
  }

  private valueOf(generation: string): Promise<T> {
    if (this.current?.generation !== generation) {
      const entry = { generation, value: this.load(generation) };
      this.current = entry;
      entry.value.catch(() => {
        if (this.current === entry) this.current = undefined;
      });
    }
    return this.current.value;
  }
}
