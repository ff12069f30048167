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
import { aliasesExist } from '../indexer/generations/generations.js';
import { runIndexing } from '../indexer/commands/index.js';
import { RunLockedError } from '../indexer/generations/runLock.js';
import { loadDevelopmentConfig } from '../core/config/development.js';
import { ConfigError } from '../core/config/rules.js';
import { loadConfig, sha256Hex } from '../src/config/service.js';
import { createElasticsearchClient } from '../core/elasticsearch/client.js';
import { keyFingerprint } from '../src/http/auth.js';
import { drain, listen, onShutdownSignal } from '../src/server.js';
import { startElasticsearch } from './elasticsearch/provider.js';
import { startOrReuseLocalNode } from './elasticsearch/sharedNode.js';
import { createDevelopmentLogger } from './logger.js';

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
const logger = createDevelopmentLogger(config.logLevel);

let devKey: string | undefined;
if (config.apiKeyDigests.length === 0) {
  devKey = developmentKey();
  config.apiKeyDigests.push(sha256Hex(devKey));
}

const log = (msg: string) => logger.info(msg);
// Outside the checkout: the node runs as an unprivileged user that may not reach the repo's folder. One data
// directory per machine, so a second `npm start` reuses the node of the first (dev/elasticsearch/sharedNode.ts).
const elasticsearch = development.elasticsearchUrl
  ? await startElasticsearch({ url: development.elasticsearchUrl, log })
  : await startOrReuseLocalNode({
      settings: development.launcher,
      dataDir: join(tmpdir(), 'geocoder-elasticsearch-data'),
      log,
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

/**
 * The sample on an empty cluster. Two starts at once on one node (a second checkout reusing the first's
 * node) both find it empty: the indexer's run lock lets one load it, the other waits for its aliases.
 */
async function loadSampleIfEmpty(): Promise<void> {
  let waiting = false;
  while (!(await aliasesExist(client, config.indexPrefix))) {
    if (!development.loadSampleOnEmpty) {
      logger.warn('no indexes yet and LOAD_SAMPLE_ON_EMPTY=false: requests will answer 503 until the indexer runs');
      return;
    }
    try {
      if (!waiting) logger.info({ manifest: development.sampleManifest }, 'no indexes yet: loading the sample data');
      await runIndexing({
        client: createElasticsearchClient({ url: elasticsearch.url, requestTimeoutMs: 120_000 }),
        manifestPath: resolve(repoRoot, development.sampleManifest),
        indexPrefix: config.indexPrefix,
        progress: 'json',
        log: logger,
      });
      return;
    } catch (error) {
      if (!(error instanceof RunLockedError)) throw error;
      if (!waiting) logger.info(`${error.message}: waiting for that run`);
      waiting = true;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
await loadSampleIfEmpty();

/** A second `npm start` (another checkout) gets a free port unless PORT was asked for explicitly. */
async function listenOnFreePort() {
  try {
    return await listen(config, client, logger);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || process.env.PORT) throw error;
    logger.warn({ port: config.port }, `port ${config.port} is in use: listening on a free port instead`);
    return listen({ ...config, port: 0 }, client, logger);
  }
}
const running = await listenOnFreePort();
const { url } = running;
if (devKey) {
  logger.info({ key_fingerprint: keyFingerprint(devKey) }, 'development API key (stored in .cache/dev-api-key)');
}
// Printed once on the console for the quick start; pino lines never carry keys.
console.log(
  [
    '',
    `  API:     ${url}`,
    `  map:     ${url}/map/`,
    `  docs:    ${url}/docs/   (OpenAPI: ${url}/openapi.json)`,
    devKey ? `  API key: ${devKey}` : '  API key: one of API_KEYS',
    `  try:     curl -H 'X-Api-Key: ${devKey ?? '<key>'}' ${url}/countries?name=neth`,
    '',
  ].join('\n'),
);
onShutdownSignal(logger, async () => {
  await drain(running, { graceMs: config.shutdownGraceMs, noticeMs: config.shutdownNoticeMs }, logger);
  await client.close();
  await elasticsearch.stop();
});
