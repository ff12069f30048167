/**
 * Rules every configuration schema shares (the service, the indexer CLI, the local launcher), so an index
 * prefix or an Elasticsearch URL means the same thing wherever it is read.
 */
import { z } from 'zod';

export class ConfigError extends Error {}

export const positiveInt = z.coerce.number().int().positive();

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Alias names are `<prefix><kind>`: Elasticsearch index names must be lower case. */
export const INDEX_PREFIX_PATTERN = /^[a-z0-9_-]*$/;
export const INDEX_PREFIX_RULE = 'lower-case letters, digits, "-" and "_" only';
export const indexPrefix = z.string().regex(INDEX_PREFIX_PATTERN, INDEX_PREFIX_RULE);

/** `http://a:9200,http://b:9200` → every node's URL, trimmed; empty entries dropped. */
export function splitElasticsearchUrls(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * ELASTICSEARCH_URL: one node's URL or several, comma-separated (the client spreads requests over them and retries
 * a failed one on another). Validated per URL and kept as one normalised comma-separated string, so code that
 * passes it on (to the client, to child processes) needs no change for a cluster.
 */
export const elasticsearchUrl = z
  .string()
  .transform(splitElasticsearchUrls)
  .pipe(z.array(z.url()).min(1, 'at least one URL'))
  .transform((urls) => urls.join(','));

/** Index layout the indexer applies to a new generation (INDEX_SHARDS, INDEX_REPLICAS). */
export const indexShards = z.coerce.number().int().min(1).max(1024);
export const indexReplicas = z.coerce.number().int().min(0).max(16);

/**
 * Comma-separated browser origins (`https://maps.example.org`, `http://localhost:5173`) or `*`. An origin is
 * scheme, host and port only: a path or trailing slash would never equal a browser's `Origin` header.
 */
export const corsOrigins = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.union([
        z.literal('*'),
        z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin is scheme://host[:port], without a path, or *'),
      ]),
    ),
  );

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Parses an environment with a schema; every problem is named in one ConfigError. */
export function parseEnv<S extends z.ZodType>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
