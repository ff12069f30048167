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

export const elasticsearchUrl = z.url();

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
