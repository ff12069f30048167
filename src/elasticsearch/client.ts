import { Client } from '@elastic/elasticsearch';

export interface ElasticsearchClientOptions {
  url: string;
  /** Per-request timeout; the API turns a timeout into 503 rather than holding the client connection. */
  requestTimeoutMs: number;
  maxRetries?: number;
}

/** One keep-alive client per process: connection reuse matters more than anything else on the hot path. */
export function createElasticsearchClient(options: ElasticsearchClientOptions): Client {
  return new Client({
    node: options.url,
    requestTimeout: options.requestTimeoutMs,
    maxRetries: options.maxRetries ?? 0,
    compression: false,
    sniffOnStart: false,
  });
}
