import { Client } from '@elastic/elasticsearch';

export interface ElasticsearchClientOptions {
  url: string;
  /** Per-request timeout; the API turns a timeout into 503 rather than holding the client connection. */
  requestTimeoutMs: number;
  maxRetries?: number;
}

/** One keep-alive client per process: connection reuse matters more than anything else on the hot path. */
export function createElasticsearchClient(options: ElasticsearchClientOptions): Client {
  // The transport's OpenTelemetry middleware runs on every request even with no tracer installed; this
  // service does not trace, so it is off unless the operator turns it on (the client reads only this variable).
  process.env.OTEL_ELASTICSEARCH_ENABLED ??= 'false';
  return new Client({
    node: options.url,
    requestTimeout: options.requestTimeoutMs,
    maxRetries: options.maxRetries ?? 0,
    compression: false,
    sniffOnStart: false,
  });
}
