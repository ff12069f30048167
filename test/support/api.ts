import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import type Koa from 'koa';
import pino from 'pino';
import { inject } from 'vitest';
import { createApp } from '../../src/wiring/app.js';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../src/server.js';
import { loadConfig, sha256Hex } from '../../src/config/service.js';
import { createElasticsearchClient, guardOf } from '../../core/elasticsearch/client.js';
import type { ServiceState } from '../../src/http/serviceState.js';
import type { TileSeeds } from '../../src/features/tiles/seed/tileSeeds.js';

export const TEST_API_KEY = 'test-key-0123456789';

export interface TestApi {
  url: string;
  client: Client;
  app: Koa;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The real Koa app on an ephemeral port, reading the sample indexes loaded once by the global setup. */
export async function startTestApi(
  options: {
    elasticsearchUrl?: string;
    indexPrefix?: string;
    requestTimeoutMs?: number;
    corsOrigins?: string[];
    bodyCacheBytes?: number;
    /** Service variables (BREAKER_FAILURES, RATE_LIMIT_RPS, API_KEYS_FILE...), read as a deployment would. */
    env?: NodeJS.ProcessEnv;
    /** The rate limiter's clock, in milliseconds. */
    now?: () => number;
    /** Draining or not (the test starts the drain). */
    state?: ServiceState;
    /** Receives every log line (parsed JSON) at level info and above, for tests that check what is logged. */
    logSink?: (line: { msg: string; [key: string]: unknown }) => void;
    /** The tiles cut ahead, made by the test (a worker of its own, a listener on the seeding's changes). */
    tileSeeds?: TileSeeds;
  } = {},
): Promise<TestApi> {
  const config = loadConfig(options.env ?? {});
  const elasticsearchUrl = options.elasticsearchUrl ?? inject('elasticsearchUrl');
  const client = createElasticsearchClient({
    url: elasticsearchUrl,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    ...config.esGuard,
  });
  const app = createApp({
    // The defaults a deployment gets, with the test's key (besides any the env names), origins and indexes.
    config: {
      ...config,
      apiKeyDigests: [sha256Hex(TEST_API_KEY), ...config.apiKeyDigests],
      envKeyDigests: [sha256Hex(TEST_API_KEY), ...config.envKeyDigests],
      corsOrigins: options.corsOrigins ?? ['*'],
      ...(options.bodyCacheBytes === undefined ? {} : { bodyCacheBytes: options.bodyCacheBytes }),
      indexPrefix: options.indexPrefix ?? inject('samplePrefix'),
      // Tests poll /health from one address far faster than a load balancer: the per-address limit of anonymous
      // requests only where a test sets it.
      ...(options.env?.ANON_RATE_LIMIT_RPS === undefined ? { anonymousRateLimit: undefined } : {}),
      // The Elasticsearch the app reads (the tile seeding's worker opens its own client to it).
      elasticsearchUrl,
      // Cutting the whole pyramid ahead takes a core for seconds to minutes: only where a test asks for it.
      ...(options.env?.TILE_SEEDING === undefined ? { tileSeeding: { ...config.tileSeeding, enabled: false } } : {}),
    },
    client,
    logger: options.logSink
      ? pino({ level: 'info' }, { write: (line: string) => options.logSink!(JSON.parse(line)) })
      : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.state ? { state: options.state } : {}),
    ...(options.tileSeeds ? { tileSeeds: options.tileSeeds } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    // As deployed (src/server.ts). With Node's default of 5 s, a test that spends longer than that between two
    // requests (bodyCache.test.ts encoding a large collection on a loaded machine) had fetch reuse a pooled
    // connection the server was closing at that moment: ECONNRESET, not a fault of the code under test.
    s.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client,
    app,
    async call(method, path, { body, rawBody, headers } = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          'x-api-key': TEST_API_KEY,
          ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      guardOf(client)?.stop();
      await client.close();
    },
  };
}
