/**
 * The service in production: serve the API on PORT against the cluster at ELASTICSEARCH_URL. It starts no
 * Elasticsearch and loads no data (the indexer CLI does that); `npm start` (dev/start.ts) is the laptop
 * entry that does both.
 */
import { ConfigError } from '../core/config/rules.js';
import { type Config, loadConfig } from './config/service.js';
import { createElasticsearchClient } from '../core/elasticsearch/client.js';
import { createServiceLogger } from './logger.js';
import { transportPatched } from './elasticsearch/transportPatch.js';
import { drain, listen, onShutdownSignal } from './server.js';

function configOrExit(): Config & { elasticsearchUrl: string } {
  try {
    const config = loadConfig();
    if (!config.elasticsearchUrl) {
      throw new ConfigError('ELASTICSEARCH_URL is required (npm start starts a local Elasticsearch instead)');
    }
    return config as Config & { elasticsearchUrl: string };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

const config = configOrExit();
const logger = createServiceLogger(config.logLevel);
if (config.apiKeyDigests.length === 0) logger.warn('no API keys configured: every request but /health gets 401');
if (!transportPatched()) {
  logger.warn(
    '@elastic/transport is not patched (installed with --ignore-scripts?): answers still work, with long GC pauses ' +
      'under load; run `npx patch-package` (patches/README.md)',
  );
}
const client = createElasticsearchClient({
  url: config.elasticsearchUrl,
  requestTimeoutMs: config.esRequestTimeoutMs,
  ...config.esGuard,
});
const running = await listen(config, client, logger);
onShutdownSignal(logger, async () => {
  await drain(running, { graceMs: config.shutdownGraceMs, noticeMs: config.shutdownNoticeMs }, logger);
  await client.close();
});
