/** The indexer CLI's environment, parsed once with the rules the service uses. */
import { z } from 'zod';
import { elasticsearchUrl, indexPrefix, indexReplicas, indexShards, logLevel, parseEnv, positiveInt } from './rules.js';

export const IndexerEnvSchema = z.object({
  ELASTICSEARCH_URL: elasticsearchUrl.default('http://127.0.0.1:9200'),
  INDEX_PREFIX: indexPrefix.default(''),
  /** Unset: info, or warn while a progress bar is on the terminal. */
  LOG_LEVEL: logLevel.optional(),
  INDEXER_BULK_CONCURRENCY: positiveInt.optional(),
  INDEXER_BULK_FLUSH_BYTES: positiveInt.optional(),
  /** Primary shards of each new generation index (default: the mapping file's, 1). */
  INDEX_SHARDS: indexShards.optional(),
  /** Replicas of each new generation index once loaded (unset: the mapping's auto_expand_replicas 0-1). */
  INDEX_REPLICAS: indexReplicas.optional(),
  /** Where each generation's address rows are kept for `update` (default row-cache/ in the working directory). */
  INDEXER_ROW_CACHE_DIR: z.string().min(1).optional(),
});

export interface IndexerConfig {
  elasticsearchUrl: string;
  indexPrefix: string;
  logLevel: z.infer<typeof logLevel> | undefined;
  /** Bulk tuning overrides for benchmarks and unusual clusters; unset means the measured defaults. */
  bulkConcurrency: number | undefined;
  bulkFlushBytes: number | undefined;
  /** Shards and replicas of new generations; undefined keeps what the mapping files say. */
  indexShards: number | undefined;
  indexReplicas: number | undefined;
  rowCacheDir: string | undefined;
}

export function loadIndexerConfig(source: NodeJS.ProcessEnv = process.env): IndexerConfig {
  const env = parseEnv(IndexerEnvSchema, source);
  return {
    elasticsearchUrl: env.ELASTICSEARCH_URL,
    indexPrefix: env.INDEX_PREFIX,
    logLevel: env.LOG_LEVEL,
    bulkConcurrency: env.INDEXER_BULK_CONCURRENCY,
    bulkFlushBytes: env.INDEXER_BULK_FLUSH_BYTES,
    indexShards: env.INDEX_SHARDS,
    indexReplicas: env.INDEX_REPLICAS,
    rowCacheDir: env.INDEXER_ROW_CACHE_DIR,
  };
}
