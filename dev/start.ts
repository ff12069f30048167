/**
 * `npm start`, the laptop entry: the service against ELASTICSEARCH_URL, or against a local Elasticsearch
 * started by the launcher when it is unset; an empty cluster first gets the bundled sample data through the
 * indexer (LOAD_SAMPLE_ON_EMPTY). The service itself (src/) neither starts Elasticsearch nor loads data:
 * in production that is `npm run start:service` (src/main.ts) after the indexer CLI has run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliasesExist } from '../indexer/generations.js';
import { runIndexing } from '../indexer/run.js';
import { loadDevelopmentConfig } from '../src/config/development.js';
import { ConfigError } from '../src/config/rules.js';
import { loadConfig, sha256Hex } from '../src/config/service.js';
import { createElasticsearchClient } from '../src/elasticsearch/client.js';
import { keyFingerprint } from '../src/http/auth.js';
import { createServiceLogger } from '../src/logger.js';
import { listen, onShutdownSignal } from '../src/server.js';
import { startElasticsearch } from './elasticsearch/provider.js';

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

function configsOrExit() {
  try {
    return { config: loadConfig(), development: loadDevelopmentConfig() };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

const { config, development } = configsOrExit();
const logger = createServiceLogger(config.logLevel);

let devKey: string | undefined;
if (config.apiKeyDigests.length === 0) {
  devKey = developmentKey();
  config.apiKeyDigests.push(sha256Hex(devKey));
}

const elasticsearch = await startElasticsearch({
  url: development.elasticsearchUrl,
  settings: development.launcher,
  // Outside the checkout: the node runs as an unprivileged user that may not reach the repo's folder.
  dataDir: development.elasticsearchUrl ? undefined : join(tmpdir(), 'geocoder-elasticsearch-data'),
  log: (msg) => logger.info(msg),
});
logger.info(
  { elasticsearch: elasticsearch.kind, version: elasticsearch.version, url: elasticsearch.url },
  'elasticsearch ready',
);
const client = createElasticsearchClient({
  url: elasticsearch.url,
  requestTimeoutMs: config.esRequestTimeoutMs,
  ...config.esGuard,
});

if (!(await aliasesExist(client, config.indexPrefix))) {
  if (development.loadSampleOnEmpty) {
    logger.info({ manifest: development.sampleManifest }, 'no indexes yet: loading the sample data');
    await runIndexing({
      client: createElasticsearchClient({ url: elasticsearch.url, requestTimeoutMs: 120_000 }),
      manifestPath: resolve(repoRoot, development.sampleManifest),
      indexPrefix: config.indexPrefix,
      progress: 'json',
      log: logger,
    });
  } else {
    logger.warn('no indexes yet and LOAD_SAMPLE_ON_EMPTY=false: requests will answer 503 until the indexer runs');
  }
}

const { server, url } = await listen(config, client, logger);
if (devKey) {
  logger.info({ key_fingerprint: keyFingerprint(devKey) }, 'development API key (stored in .cache/dev-api-key)');
  // Printed once on the console for the quick start; pino lines never carry keys.
  console.log(
    `\n  API:     ${url}\n  API key: ${devKey}\n  try:     curl -H 'X-Api-Key: ${devKey}' ${url}/countries?name=neth\n`,
  );
}
onShutdownSignal(logger, async () => {
  server.close();
  await client.close();
  await elasticsearch.stop();
});
