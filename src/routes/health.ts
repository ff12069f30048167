import type Router from '@koa/router';
import { INDEX_KINDS } from '../elasticsearch/documents.js';
import { aliasName } from '../elasticsearch/indexNames.js';
import type { RouteDeps } from './context.js';

/** Open to load balancers: 200 while Elasticsearch answers, 503 otherwise. */
export function registerHealthRoute(router: Router, { client, indexPrefix, logger }: RouteDeps): void {
  router.get('/health', async (ctx) => {
    try {
      const [health, nodes, counts] = await Promise.all([
        client.cluster.health(),
        client.nodes.info({ node_id: '_local', metric: '_none', filter_path: 'nodes.*.version' }),
        Promise.all(
          INDEX_KINDS.map(async (kind) => {
            const alias = aliasName(indexPrefix, kind);
            try {
              const res = await client.cat.indices({ index: alias, format: 'json', h: 'index,docs.count' });
              const row = res[0];
              return [
                kind,
                row ? { alias, index: row.index ?? '', documents: Number(row['docs.count'] ?? 0) } : null,
              ] as const;
            } catch {
              return [kind, null] as const;
            }
          }),
        ),
      ]);
      const version = Object.values(nodes.nodes ?? {})[0]?.version ?? 'unknown';
      ctx.body = {
        status: 'ok',
        elasticsearch: { version, cluster_status: health.status },
        indexes: Object.fromEntries(counts),
      };
    } catch (error) {
      logger.warn({ err: error }, 'health check failed');
      ctx.status = 503;
      ctx.body = {
        status: 'unavailable',
        elasticsearch: { version: 'unknown', cluster_status: 'unreachable' },
        indexes: Object.fromEntries(INDEX_KINDS.map((k) => [k, null])),
      };
    }
  });
}
