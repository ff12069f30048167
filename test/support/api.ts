import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import pino from 'pino';
import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { DEFAULT_ES_BATCH_MAX, sha256Hex } from '../../src/config/service.js';
import { createElasticsearchClient } from '../../src/elasticsearch/client.js';

export const TEST_API_KEY = 'test-key-0123456789';

export interface TestApi {
  url: string;
  client: Client;
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
  options: { elasticsearchUrl?: string; indexPrefix?: string; requestTimeoutMs?: number } = {},
): Promise<TestApi> {
  const client = createElasticsearchClient({
    url: options.elasticsearchUrl ?? inject('elasticsearchUrl'),
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
  });
  const app = createApp({
    config: {
      apiKeyDigests: [sha256Hex(TEST_API_KEY)],
      bodyLimitBytes: 16 * 1024,
      esBatchMax: DEFAULT_ES_BATCH_MAX,
      indexPrefix: options.indexPrefix ?? inject('samplePrefix'),
    },
    client,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client,
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
      await client.close();
    },
  };
}
