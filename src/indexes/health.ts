/** What /health reports: the cluster's state and, per index kind, the generation behind its alias. */
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';

export interface IndexState {
  alias: string;
  index: string;
  documents: number;
}

export interface BackendHealth {
  version: string;
  clusterStatus: string;
  indexes: Record<IndexKind, IndexState | null>;
}

/** How long one answer of the cluster serves every health caller: a flood costs at most one check a second. */
export const HEALTH_CACHE_MS = 1000;

export class HealthRepository {
  private latest: { at: number; result: Promise<BackendHealth>; settled: boolean } | undefined;

  constructor(
    private readonly client: Client,
    private readonly indexPrefix: string,
    /** Milliseconds, for the cache's age (tests pass a fake one). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The check still running, or the last one while it is under HEALTH_CACHE_MS old (answered or failed), else a
   * new one: however many callers, Elasticsearch sees one check at a time and at most one a second.
   */
  recent(): Promise<BackendHealth> {
    const now = this.now();
    const latest = this.latest;
    if (latest && (!latest.settled || now - latest.at < HEALTH_CACHE_MS)) return latest.result;
    const next = { at: now, result: this.check(), settled: false };
    const settle = () => {
      next.settled = true;
      next.at = this.now();
    };
    // Callers handle a rejection; the cached promise must not count as unhandled when none is waiting.
    next.result.then(settle, settle);
    this.latest = next;
    return next.result;
  }

  /** @throws whatever the client throws when Elasticsearch does not answer (the route answers 503). */
  async check(): Promise<BackendHealth> {
    const [health, nodes, counts] = await Promise.all([
      this.client.cluster.health(),
      this.client.nodes.info({ node_id: '_local', metric: '_none', filter_path: 'nodes.*.version' }),
      Promise.all(INDEX_KINDS.map(async (kind) => [kind, await this.indexState(kind)] as const)),
    ]);
    return {
      version: Object.values(nodes.nodes ?? {})[0]?.version ?? 'unknown',
      clusterStatus: health.status,
      indexes: Object.fromEntries(counts) as Record<IndexKind, IndexState | null>,
    };
  }

  private async indexState(kind: IndexKind): Promise<IndexState | null> {
    const alias = aliasName(this.indexPrefix, kind);
    try {
      const res = await this.client.cat.indices({ index: alias, format: 'json', h: 'index,docs.count' });
      const row = res[0];
      return row ? { alias, index: row.index ?? '', documents: Number(row['docs.count'] ?? 0) } : null;
    } catch {
      return null;
    }
  }
}

export const NO_INDEXES = Object.fromEntries(INDEX_KINDS.map((kind) => [kind, null])) as Record<
  IndexKind,
  IndexState | null
>;
