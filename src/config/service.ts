/**
 * Configuration comes from the environment, parsed and validated once at start-up.
 * Defaults work on a laptop; production sets NODE_ENV=production and real keys.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_GUARD } from '../../core/elasticsearch/client.js';
import { DEFAULT_HEAVY_ANSWERS, type HeavyAnswerLimits } from './heavyAnswerLimits.js';
import {
  booleanFlag,
  ConfigError,
  corsOrigins,
  elasticsearchUrl,
  indexPrefix,
  logLevel,
  parseEnv,
  positiveInt,
  splitElasticsearchUrls,
} from '../../core/config/rules.js';

import { DEFAULT_BREAKER_STALL_MS, defaultAttemptTimeoutMs } from './elasticsearchTimings.js';
import { mapBaseOf, type MapBase } from './mapBase.js';
import { type TileSeedingOptions, tileSeedingOf } from './tileSeeding.js';

export { ConfigError };
export { defaultAttemptTimeoutMs };

/** Measured on bulk data with 16 client connections: batches rarely exceed 8, and 16 bounds head-of-line waits. */
export const DEFAULT_ES_BATCH_MAX = 16;

/**
 * Rendered boundary answers kept in memory: the sample's world countries are about 2 MB as JSON and less in
 * each encoding; 64 MiB holds many such collections (one answer may take at most a quarter).
 */
export const DEFAULT_BODY_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * What answers in flight may hold in memory for their clients at once (src/http/byteBudget.ts): twice the largest
 * body the default cache keeps (a quarter of it), so one such answer can be copied while others are in flight; the
 * world's countries are about 2 MB.
 */
export const DEFAULT_ANSWERS_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;
export const DEFAULT_BATCH_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A page load is a handful of files and a load balancer checks a few times a second: 50 a second per address
 * (100 at once) leaves room for both while a flood from one address is answered 429 at once.
 */
export const DEFAULT_ANON_RATE_LIMIT = { rps: 50, burst: 100 };
/**
 * A bucket is about 150 bytes: 100,000 addresses bound the table near 15 MB however many addresses a client can
 * make up (IPv6 ranges, forged X-Forwarded-For with TRUST_PROXY), far more than a deployment sees at once.
 */
export const DEFAULT_ANON_RATE_LIMIT_ADDRESSES = 100_000;
/**
 * A refused client could not have been served before its Retry-After (at least a second) anyway: holding the 429
 * that long bounds a flood to one request per connection a second (npm run chaos, phase 7).
 */
export const DEFAULT_ANON_REFUSAL_HOLD_MS = 1000;
/** Longer than a slow search (ES_REQUEST_TIMEOUT_MS) and shorter than Kubernetes' default 30 s grace period. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long a draining process keeps its idle keep-alive connections (src/server.ts' drain): long enough for a busy
 * keep-alive client's next request, which is answered with `Connection: close`.
 */
export const DEFAULT_SHUTDOWN_NOTICE_MS = 1000;

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  ELASTICSEARCH_URL: elasticsearchUrl.optional(),
  ES_REQUEST_TIMEOUT_MS: positiveInt.default(5000),
  /**
   * With several nodes: how long a read's first attempt may take before it moves to another node; 0: no per-node
   * bound; unset: derived (defaultAttemptTimeoutMs).
   */
  ES_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  ES_BATCH_MAX: positiveInt.default(DEFAULT_ES_BATCH_MAX),
  /** A debug switch: each answer tells its searches in X-Search-Trace (src/http/searchTrace.ts). */
  SEARCH_TRACE: booleanFlag.default(false),
  INDEX_PREFIX: indexPrefix.default(''),
  API_KEYS: z.string().optional(),
  API_KEYS_FILE: z.string().optional(),
  BODY_LIMIT_BYTES: positiveInt.default(DEFAULT_BODY_LIMIT_BYTES),
  /** 1,000 forward bodies of ~150-250 bytes each; room for long names without inviting abuse. */
  BATCH_BODY_LIMIT_BYTES: positiveInt.default(DEFAULT_BATCH_BODY_LIMIT_BYTES),
  LOG_LEVEL: logLevel.default('info'),
  CORS_ORIGINS: corsOrigins.optional(),
  BODY_CACHE_BYTES: z.coerce.number().int().min(0).default(DEFAULT_BODY_CACHE_BYTES),
  /**
   * Bytes answers in flight may hold for their clients at once: the copies of answers being built for the body cache,
   * the first bytes of those waiting for a heavy-answer slot, heavy answers held in memory for one request.
   */
  ANSWERS_IN_FLIGHT_BYTES: positiveInt.default(DEFAULT_ANSWERS_IN_FLIGHT_BYTES),
  /** An answer of at least this many bytes on the wire is heavy (bounded and written in slices). */
  HEAVY_ANSWER_BYTES: positiveInt.default(DEFAULT_HEAVY_ANSWERS.minBytes),
  /** Heavy answers written at once; 0 turns the bound off. */
  HEAVY_ANSWERS_CONCURRENT: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.concurrent),
  /** Heavy answers waiting for a slot; one more is answered 503 `overloaded`. */
  HEAVY_ANSWERS_QUEUED: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.queued),
  /** Pace of each heavy answer in bytes per second; 0: as fast as the client takes it. */
  HEAVY_ANSWER_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.bytesPerSecond),
  /** A heavy answer's client that has not taken its next slice for this long gives its slot up; 0: never. */
  HEAVY_ANSWER_STALL_MS: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.stallMs),
  /** Heavy answers written outside the bound (their client too slow) at most; past it a slow one keeps its slot. */
  HEAVY_ANSWERS_STALLED: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.stalled),
  /** A heavy answer's client that has taken nothing for this long is cut; 0: never. */
  HEAVY_ANSWER_SEND_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_HEAVY_ANSWERS.sendTimeoutMs),
  BREAKER_FAILURES: positiveInt.default(DEFAULT_GUARD.breakerFailures),
  BREAKER_PROBE_MS: positiveInt.default(DEFAULT_GUARD.breakerProbeMs),
  BREAKER_STALL_MS: z.coerce.number().int().min(0).default(DEFAULT_BREAKER_STALL_MS),
  MAX_IN_FLIGHT_SEARCHES: positiveInt.default(DEFAULT_GUARD.maxInFlight),
  MAX_QUEUED_REQUESTS: z.coerce.number().int().min(0).default(DEFAULT_GUARD.maxQueued),
  /** Requests per second per API key; 0 turns rate limiting off. */
  RATE_LIMIT_RPS: z.coerce.number().min(0).default(0),
  RATE_LIMIT_BURST: positiveInt.optional(),
  METRICS_KEY: z.string().min(1).optional(),
  /** Requests per second per client address without a valid key (health, pages, preflights, 401s); 0: no limit. */
  ANON_RATE_LIMIT_RPS: z.coerce.number().min(0).default(DEFAULT_ANON_RATE_LIMIT.rps),
  ANON_RATE_LIMIT_BURST: positiveInt.optional(),
  /** Client addresses whose anonymous budget is remembered at most (least recently seen forgotten first). */
  ANON_RATE_LIMIT_ADDRESSES: positiveInt.default(DEFAULT_ANON_RATE_LIMIT_ADDRESSES),
  /** How long a refused anonymous request is held before its 429 is sent (src/http/anonymousLimit.ts); 0: at once. */
  ANON_REFUSAL_HOLD_MS: z.coerce.number().int().min(0).default(DEFAULT_ANON_REFUSAL_HOLD_MS),
  /** Behind a reverse proxy: the client address is the last X-Forwarded-For entry, not the socket's peer. */
  TRUST_PROXY: booleanFlag.default(false),
  SHUTDOWN_GRACE_MS: positiveInt.default(DEFAULT_SHUTDOWN_GRACE_MS),
  /** How long a draining process keeps its idle keep-alive connections open (at most a quarter of the grace). */
  SHUTDOWN_NOTICE_MS: positiveInt.default(DEFAULT_SHUTDOWN_NOTICE_MS),
  /** Listen with SO_REUSEPORT, so several processes can share PORT (a rolling restart on one host). */
  REUSE_PORT: booleanFlag.default(false),
  /** Connections waiting to be accepted; the kernel caps it (net.core.somaxconn). Node's own default is 511. */
  LISTEN_BACKLOG: positiveInt.default(4096),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  /** The map page's base map (MAP_BASE_*), none by default. */
  mapBase?: MapBase;
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  elasticsearchUrl: string | undefined;
  esRequestTimeoutMs: number;
  /** Most searches coalesced into one `_msearch`; 1 sends every search on its own. */
  esBatchMax: number;
  /** SEARCH_TRACE: each answer's searches in a header (src/http/searchTrace.ts). */
  searchTrace: boolean;
  indexPrefix: string;
  /** sha256 (hex) of every accepted key: plain keys are hashed on load so only digests stay in memory. */
  apiKeyDigests: string[];
  bodyLimitBytes: number;
  /** Body limit of POST /geocode/batch. */
  batchBodyLimitBytes: number;
  logLevel: Env['LOG_LEVEL'];
  /** Browser origins allowed to call the API; `['*']` is any origin, `[]` none. */
  corsOrigins: readonly string[];
  /** Bytes of rendered answers kept (src/http/bodyCache.ts); 0 turns the cache off. */
  bodyCacheBytes: number;
  /** Bytes answers in flight may hold for their clients at once (src/http/byteBudget.ts). */
  answersInFlightBytes: number;
  /** How heavy answers share the service with cheap ones (src/http/heavyAnswers.ts). */
  heavyAnswers: HeavyAnswerLimits;
  /** API_KEYS_FILE, reloaded on SIGHUP and on change (src/http/keyStore.ts); its keys replace the file's part. */
  apiKeysFile: string | undefined;
  /** Digests from API_KEYS alone: what stays accepted whatever the file holds. */
  envKeyDigests: string[];
  /** Circuit breaker and load shedding around Elasticsearch (core/elasticsearch/circuitBreaker.ts), for the client. */
  esGuard: typeof DEFAULT_GUARD;
  /** Token bucket per API key (src/http/rateLimit.ts); undefined: no limit. */
  rateLimit: { rps: number; burst: number } | undefined;
  /** sha256 (hex) of METRICS_KEY, which opens GET /metrics from anywhere; loopback needs none. */
  metricsKeyDigest: string | undefined;
  /** Token bucket per client address for requests without a valid key (src/http/anonymousLimit.ts). */
  anonymousRateLimit: { rps: number; burst: number } | undefined;
  /** How many client addresses' anonymous buckets are kept at most (ANON_RATE_LIMIT_ADDRESSES). */
  anonymousAddresses: number;
  /** How long a refused anonymous request waits for its 429 (ANON_REFUSAL_HOLD_MS). */
  anonymousRefusalHoldMs: number;
  /** Whether X-Forwarded-For names the client (TRUST_PROXY). */
  trustProxy: boolean;
  /** How long a SIGTERM waits for requests in flight before closing Elasticsearch (src/server.ts). */
  shutdownGraceMs: number;
  /** How long, of the grace, a SIGTERM keeps the idle keep-alive connections open (src/server.ts). */
  shutdownNoticeMs: number;
  /** Whether other processes may listen on the same port (REUSE_PORT, src/server.ts). */
  reusePort: boolean;
  /** The listen queue (LISTEN_BACKLOG, src/server.ts). */
  listenBacklog: number;
  /** The boundary tiles cut ahead (TILE_SEEDING, TILE_SEED_MAX_ZOOM, TILE_SEED_WORKER_MB, TILE_SEED_STALL_MS, TILE_SEED_MAX_BYTES). */
  tileSeeding: TileSeedingOptions;
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

/** Every key of a list as a digest. */
export function keyDigests(keys: { plain: string[]; digests: string[] }): string[] {
  return [...keys.digests, ...keys.plain.map(sha256Hex)];
}

export class EmptyKeyFileError extends ConfigError {}

/**
 * The digests of API_KEYS_FILE. A file that says it holds no keys (say, only comment lines) holds none; a
 * zero-byte file throws EmptyKeyFileError (it may be caught between a truncation and its write); a file that
 * cannot be read or holds a bad entry throws ConfigError.
 */
export function readKeyFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`API_KEYS_FILE cannot be read: ${(error as Error).message}`);
  }
  if (text.length === 0) throw new EmptyKeyFileError('API_KEYS_FILE is empty (zero bytes): perhaps caught mid-write');
  return keyDigests(parseKeyList(text, /\r?\n/));
}

/** At start-up there are no earlier keys to keep: an empty file holds none (production then refuses to start). */
function keyFileAtStart(path: string): string[] {
  try {
    return readKeyFile(path);
  } catch (error) {
    if (error instanceof EmptyKeyFileError) return [];
    throw error;
  }
}

/** A rate of 0 is no limit; a burst is at least one request. */
function tokenBucket(rps: number, burst: number): { rps: number; burst: number } | undefined {
  return rps > 0 ? { rps, burst: Math.max(1, burst) } : undefined;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(EnvSchema, source);
  const envKeyDigests = env.API_KEYS ? keyDigests(parseKeyList(env.API_KEYS, /,/)) : [];
  const fileKeyDigests = env.API_KEYS_FILE ? keyFileAtStart(env.API_KEYS_FILE) : [];
  const configured = envKeyDigests.length + fileKeyDigests.length > 0;
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
    searchTrace: env.SEARCH_TRACE,
    indexPrefix: env.INDEX_PREFIX,
    apiKeyDigests: [...envKeyDigests, ...fileKeyDigests],
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    batchBodyLimitBytes: env.BATCH_BODY_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL,
    // Unset: any origin while developing (a map page on localhost just works), none in production.
    corsOrigins: env.CORS_ORIGINS ?? (env.NODE_ENV === 'production' ? [] : ['*']),
    bodyCacheBytes: env.BODY_CACHE_BYTES,
    answersInFlightBytes: env.ANSWERS_IN_FLIGHT_BYTES,
    heavyAnswers: {
      minBytes: env.HEAVY_ANSWER_BYTES,
      concurrent: env.HEAVY_ANSWERS_CONCURRENT,
      queued: env.HEAVY_ANSWERS_QUEUED,
      bytesPerSecond: env.HEAVY_ANSWER_BYTES_PER_SECOND,
      stallMs: env.HEAVY_ANSWER_STALL_MS,
      stalled: env.HEAVY_ANSWERS_STALLED,
      sendTimeoutMs: env.HEAVY_ANSWER_SEND_TIMEOUT_MS,
    },
    apiKeysFile: env.API_KEYS_FILE,
    envKeyDigests,
    esGuard: {
      breakerFailures: env.BREAKER_FAILURES,
      breakerProbeMs: env.BREAKER_PROBE_MS,
      breakerStallMs: env.BREAKER_STALL_MS,
      attemptTimeoutMs:
        env.ES_ATTEMPT_TIMEOUT_MS ??
        defaultAttemptTimeoutMs(
          env.ELASTICSEARCH_URL ? splitElasticsearchUrls(env.ELASTICSEARCH_URL).length : 1,
          env.ES_REQUEST_TIMEOUT_MS,
          env.BREAKER_STALL_MS,
        ),
      maxInFlight: env.MAX_IN_FLIGHT_SEARCHES,
      maxQueued: env.MAX_QUEUED_REQUESTS,
    },
    rateLimit: tokenBucket(env.RATE_LIMIT_RPS, env.RATE_LIMIT_BURST ?? Math.ceil(env.RATE_LIMIT_RPS)),
    metricsKeyDigest: env.METRICS_KEY === undefined ? undefined : sha256Hex(env.METRICS_KEY),
    anonymousRateLimit: tokenBucket(
      env.ANON_RATE_LIMIT_RPS,
      env.ANON_RATE_LIMIT_BURST ??
        (env.ANON_RATE_LIMIT_RPS === DEFAULT_ANON_RATE_LIMIT.rps
          ? DEFAULT_ANON_RATE_LIMIT.burst
          : Math.ceil(env.ANON_RATE_LIMIT_RPS)),
    ),
    anonymousAddresses: env.ANON_RATE_LIMIT_ADDRESSES,
    anonymousRefusalHoldMs: env.ANON_REFUSAL_HOLD_MS,
    trustProxy: env.TRUST_PROXY,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    shutdownNoticeMs: env.SHUTDOWN_NOTICE_MS,
    reusePort: env.REUSE_PORT,
    listenBacklog: env.LISTEN_BACKLOG,
    tileSeeding: tileSeedingOf(source),
    mapBase: mapBaseOf(source),
  };
}
