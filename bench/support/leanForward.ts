/**
 * An experiment, not a service: exact forward geocoding (`POST /geocode/forward`) on bare `node:http`, the same
 * endpoint declaration, validation, repositories, batcher and guarded Elasticsearch client as the API, and
 * nothing of the HTTP layer (no Koa, no request log, metrics, key check, CORS, compression, security headers or
 * error envelope); with LEAN_SEARCH=undici, its searches also go past the Elasticsearch client. `npm run bench:cost
 * -- --lean` sets both beside the API and the bare hop: the API's CPU per request above the first is what Koa and
 * the middleware cost; the first's above the second is the Elasticsearch client's; the second's above the bare hop
 * is the handler's own work.
 *
 * Run as a child process: PORT, ELASTICSEARCH_URL, INDEX_PREFIX and LEAN_SEARCH from the environment.
 */
import { createServer } from 'node:http';
import { loadConfig } from '../../src/config/service.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { SearchBatcher } from '../../src/elasticsearch/searchBatcher.js';
import { answerOf, readInput } from '../../src/endpoints/answer.js';
import { forwardEndpoint } from '../../src/features/address/endpoints.js';
import { parseStrictJson } from '../../src/http/jsonBody.js';
import { buildSearchServices } from '../../src/wiring/services.js';
import { createServiceLogger } from '../../src/logger.js';
import { UndiciSearcher } from './undiciSearcher.js';

const config = loadConfig();
const client = createElasticsearchClient({
  url: process.env.ELASTICSEARCH_URL!,
  requestTimeoutMs: config.esRequestTimeoutMs,
  ...config.esGuard,
});
// LEAN_SEARCH=undici: the searches go over raw undici instead (bench/support/undiciSearcher.ts), past the client.
const searcher =
  process.env.LEAN_SEARCH === 'undici'
    ? new UndiciSearcher(process.env.ELASTICSEARCH_URL!)
    : new SearchBatcher(client, config.esBatchMax);
// Built as the API builds it (only the forward endpoint's services are used).
const deps = buildSearchServices({
  client,
  indexPrefix: config.indexPrefix,
  searcher,
  logger: createServiceLogger('silent'),
});

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const acceptLanguage = req.headers['accept-language'];
    Promise.resolve()
      .then(() => {
        const body = parseStrictJson(Buffer.concat(chunks).toString('utf8'));
        return answerOf(forwardEndpoint, readInput(forwardEndpoint, { body, acceptLanguage }), deps);
      })
      .then(
        (answer) => {
          const text = JSON.stringify(answer);
          res.writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(text),
          });
          res.end(text);
        },
        (error: { status?: number }) => {
          res.writeHead(error.status ?? 500).end();
        },
      );
  });
}).listen(Number(process.env.PORT), '127.0.0.1');

// An orderly exit, so that `--cpu-prof` writes its profile (a plain SIGTERM would end the process without it).
process.on('SIGTERM', () => process.exit(0));
