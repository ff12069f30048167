/**
 * Which index generation is live behind an alias (the concrete index `<prefix>areas-<timestamp>`): what the
 * ETags of boundary and hierarchy answers are derived from, so a reindex (a new generation) changes them.
 *
 * Cached for GENERATION_TTL_MS: under load every request would otherwise add a round trip, while an alias
 * swap (a reindex, a rollback) happens rarely; for at most this long after one, ETags still name the old
 * generation (a client may get one extra 304 for data that just changed, or one extra full answer).
 */
import type { Client } from '@elastic/elasticsearch';
import { BackendUnavailableError } from '../domain/errors.js';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { elasticsearchCall } from '../elasticsearch/failures.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';

export const GENERATION_TTL_MS = 1000;

export class IndexGenerations {
  private readonly cache = new Map<IndexKind, { generation: Promise<string>; expires: number }>();

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

  private live(kind: IndexKind): Promise<string> {
    const cached = this.cache.get(kind);
    if (cached && cached.expires > this.now()) return cached.generation;
    // Concurrent requests share one lookup; a failed lookup is not cached.
    const generation = this.lookUp(kind);
    this.cache.set(kind, { generation, expires: this.now() + this.ttlMs });
    generation.catch(() => this.cache.delete(kind));
    return generation;
  }

  private async lookUp(kind: IndexKind): Promise<string> {
    const alias = aliasName(this.indexPrefix, kind);
    // resolveIndex answers for an alias and for a plain index of that name alike (as searches do); a
    // missing name is index_not_found, which elasticsearchCall turns into BackendUnavailableError (503).
    const res = await elasticsearchCall(() => this.client.indices.resolveIndex({ name: alias }));
    const names = new Set([...res.aliases.flatMap((a) => a.indices), ...res.indices.map((i) => i.name)]);
    if (names.size === 0) throw new BackendUnavailableError(`${alias} resolves to no index`);
    return [...names].sort().join('+');
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

  async get(): Promise<T> {
    const [generation] = await this.generations.of([this.kind]);
    if (!generation) throw new Error(`no ${this.kind} generation`);
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
