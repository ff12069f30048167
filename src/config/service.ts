/**
 * Configuration comes from the environment, parsed and validated once at start-up.
 * Defaults work on a laptop; production sets NODE_ENV=production and real keys.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, elasticsearchUrl, indexPrefix, logLevel, parseEnv, positiveInt } from './rules.js';

export { ConfigError };

/** Measured on bulk data with 16 client connections: batches rarely exceed 8, and 16 bounds head-of-line waits. */
export const DEFAULT_ES_BATCH_MAX = 16;

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  ELASTICSEARCH_URL: elasticsearchUrl.optional(),
  ES_REQUEST_TIMEOUT_MS: positiveInt.default(5000),
  ES_BATCH_MAX: positiveInt.default(DEFAULT_ES_BATCH_MAX),
  INDEX_PREFIX: indexPrefix.default(''),
  API_KEYS: z.string().optional(),
  API_KEYS_FILE: z.string().optional(),
  BODY_LIMIT_BYTES: positiveInt.default(16 * 1024),
  LOG_LEVEL: logLevel.default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  elasticsearchUrl: string | undefined;
  esRequestTimeoutMs: number;
  /** Most searches coalesced into one `_msearch`; 1 sends every search on its own. */
  esBatchMax: number;
  indexPrefix: string;
  /** sha256 (hex) of every accepted key: plain keys are hashed on load so only digests stay in memory. */
  apiKeyDigests: string[];
  bodyLimitBytes: number;
  logLevel: Env['LOG_LEVEL'];
}

/** Lines of API_KEYS_FILE: a plain key, or `sha256:<64 hex>` so the file need not hold plaintext. */
export function parseKeyList(text: string, separator: RegExp): { plain: string[]; digests: string[] } {
  const plain: string[] = [];
  const digests: string[] = [];
  for (const raw of text.split(separator)) {
    const entry = raw.trim();
    if (!entry || entry.startsWith('#')) continue;
    const digest = /^sha256:([0-9a-fA-F]{64})$/.exec(entry)?.[1];
    if (digest) digests.push(digest.toLowerCase());
    else if (entry.startsWith('sha256:')) throw new ConfigError('API key entry "sha256:..." must hold 64 hex digits');
    else plain.push(entry);
  }
  return { plain, digests };
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(EnvSchema, source);
  const plain: string[] = [];
  const digests: string[] = [];
  if (env.API_KEYS) {
    const keys = parseKeyList(env.API_KEYS, /,/);
    plain.push(...keys.plain);
    digests.push(...keys.digests);
  }
  if (env.API_KEYS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.API_KEYS_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError(`API_KEYS_FILE cannot be read: ${(error as Error).message}`);
    }
    const keys = parseKeyList(text, /\r?\n/);
    plain.push(...keys.plain);
    digests.push(...keys.digests);
  }
  const configured = plain.length + digests.length > 0;
  if (!configured && env.NODE_ENV === 'production') {
    throw new ConfigError('No API keys configured: set API_KEYS or API_KEYS_FILE');
  }
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    elasticsearchUrl: env.ELASTICSEARCH_URL,
    esRequestTimeoutMs: env.ES_REQUEST_TIMEOUT_MS,
    esBatchMax: env.ES_BATCH_MAX,
    indexPrefix: env.INDEX_PREFIX,
    apiKeyDigests: [...digests, ...plain.map(sha256Hex)],
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL,
  };
}
