/**
 * Where an Elasticsearch comes from, for tests, `npm start` and the benchmarks alike:
 * ELASTICSEARCH_URL if set; else testcontainers when a Docker engine is reachable; else the local launcher.
 */
import { existsSync } from 'node:fs';
import { type LauncherSettings, loadDevelopmentConfig } from '../../core/config/development.js';
import { fetchElasticsearchVersion, type LocalNodeOptions, startLocalNode } from './localNode.js';

/** Keep in step with DISTRIBUTIONS in localNode.ts and docker-compose.yml. */
export const ELASTICSEARCH_IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch:9.5.0';

export interface RunningElasticsearch {
  kind: 'external' | 'testcontainers' | 'local';
  url: string;
  version: string;
  stop: () => Promise<void>;
}

export interface StartOptions extends LocalNodeOptions {
  url?: string;
}

async function dockerReachable(settings: LauncherSettings): Promise<boolean> {
  if (settings.provider === 'local') return false;
  if (!settings.dockerHost && !existsSync('/var/run/docker.sock')) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainer(log: (m: string) => void): Promise<RunningElasticsearch> {
  const { ElasticsearchContainer } = await import('@testcontainers/elasticsearch');
  log(`starting ${ELASTICSEARCH_IMAGE} with testcontainers`);
  const container = await new ElasticsearchContainer(ELASTICSEARCH_IMAGE)
    .withEnvironment({ 'xpack.security.enabled': 'false', ES_JAVA_OPTS: '-Xms512m -Xmx512m' })
    .start();
  const url = container.getHttpUrl();
  return {
    kind: 'testcontainers',
    url,
    version: await fetchElasticsearchVersion(url),
    stop: async () => {
      await container.stop();
    },
  };
}

export async function startElasticsearch(options: StartOptions = {}): Promise<RunningElasticsearch> {
  const log = options.log ?? (() => {});
  const development = loadDevelopmentConfig();
  const settings = options.settings ?? development.launcher;
  const url = options.url ?? development.elasticsearchUrl;
  if (url) {
    return { kind: 'external', url, version: await fetchElasticsearchVersion(url), stop: async () => {} };
  }
  if (await dockerReachable(settings)) return startContainer(log);
  const node = await startLocalNode({ ...options, settings });
  return { kind: 'local', url: node.url, version: node.version, stop: node.stop };
}
