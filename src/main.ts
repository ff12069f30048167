/**
 * `npm start`: serve the API on PORT against ELASTICSEARCH_URL, or against a local Elasticsearch started by
 * the launcher when it is unset. An empty cluster gets the bundled sample data before the first request.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createApp } from './app.js';
import { ConfigError, loadConfig, sha256Hex } from './config.js';
import { createElasticsearchClient } from './elasticsearch/client.js';
import { startElasticsearch } from './elasticsearch/provider.js';
import { keyFingerprint } from './http/auth.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A development key that survives restarts, so the quick start's curl examples keep working. */
function developmentKey(): string {
  const file = join(repoRoot, '.cache', 'dev-api-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = `dev-${randomBytes(16).toString('hex')}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // Buffered, asynchronous log writes: a synchronous write per request line was a third of the API's CPU
  // (the syscall, not the formatting). Lines are flushed every 8 KiB, every second and at shutdown.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8192 });
  const logger = pino({ level: config.logLevel, base: { service: 'geocoder' } }, destination);
  setInterval(() => logger.flush(), 1000).unref();
  process.on('exit', () => destination.flushSync());

  let devKey: string | undefined;
  if (config.apiKeyDigests.length === 0) {
    devKey = developmentKey();
    config.apiKeyDigests.push(sha256Hex(devKey));
  }

  const elasticsearch = await startElasticsearch({
    url: config.elasticsearchUrl,
    // Outside the checkout: the node runs as an unprivileged user that may not reach the repo's folder.
    dataDir: config.elasticsearchUrl ? undefined : join(tmpdir(), 'geocoder-elasticsearch-data'),
    log: (msg) => logger.info(msg),
  });
  logger.info(
    { elasticsearch: elasticsearch.kind, version: elasticsearch.version, url: elasticsearch.url },
    'elasticsearch ready',
  );
  const client = createElasticsearchClient({
    url: elasticsearch.url,
    requestTimeoutMs: config.esRequestTimeoutMs,
  });

  const { aliasesExist, runIndexing } = await import('../indexer/run.js');
  if (!(await aliasesExist(client, config.indexPrefix))) {
    if (config.loadSampleOnEmpty) {
      logger.info({ manifest: config.sampleManifest }, 'no indexes yet: loading the sample data');
      await runIndexing({
        client: createElasticsearchClient({ url: elasticsearch.url, requestTimeoutMs: 120_000 }),
        manifestPath: resolve(repoRoot, config.sampleManifest),
        indexPrefix: config.indexPrefix,
        progress: 'json',
        log: logger,
      });
    } else {
      logger.warn('no indexes yet and LOAD_SAMPLE_ON_EMPTY=false: requests will answer 503 until the indexer runs');
    }
  }

  const app = createApp({ config, client, logger });
  const server = app.listen(config.port, config.host, () => {
    const url = `http://localhost:${config.port}`;
    logger.info({ url }, 'geocoder listening');
    if (devKey) {
      logger.info({ key_fingerprint: keyFingerprint(devKey) }, 'development API key (stored in .cache/dev-api-key)');
      // Printed once on the console for the quick start; pino lines never carry keys.
      console.log(
        `\n  API:     ${url}\n  API key: ${devKey}\n  try:     curl -H 'X-Api-Key: ${devKey}' ${url}/countries?name=neth\n`,
      );
    }
  });
  server.keepAliveTimeout = 65_000;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    server.close();
    await client.close();
    await elasticsearch.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
