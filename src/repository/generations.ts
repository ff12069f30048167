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
import type { IndexKind } from '../elasticsearch/documents.js';
import { elasticsearchCall } from '../elasticsearch/failures.js';
import { aliasName } from '../elasticsearch/indexNames.js';

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
