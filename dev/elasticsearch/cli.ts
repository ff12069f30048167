/**
 * `npm run es [-- --nodes N]`: a local Elasticsearch for development and benchmarks, kept running until Ctrl-C.
 * Prints the URL to export as ELASTICSEARCH_URL (every node's, comma-separated, for a cluster).
 *
 * --nodes N (default 1): N nodes on loopback, each its own JVM with ES_HEAP (default 1g; 512m is enough for
 * the sample), ports and data directory, in one cluster; always the local launcher (not testcontainers).
 */
import { parseArgs } from 'node:util';
import { loadDevelopmentConfig } from '../../core/config/development.js';
import { startLocalCluster } from './localNode.js';
import { startElasticsearch } from './provider.js';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '1' } } });
const count = Number(values.nodes);
if (!Number.isInteger(count) || count < 1 || count > 9) {
  console.error('--nodes must be an integer from 1 to 9');
  process.exit(2);
}
const log = (m: string) => console.error(m);
// 1g unless ES_HEAP says otherwise: benchmarks load 2.28 M addresses into this node.
const heap = loadDevelopmentConfig().launcher.heap ?? '1g';

let stop: () => Promise<void>;
if (count === 1) {
  const node = await startElasticsearch({ log, heap });
  console.log(JSON.stringify({ kind: node.kind, url: node.url, version: node.version }));
  stop = node.stop;
} else {
  const cluster = await startLocalCluster({ log, heap, nodes: count });
  const green = await cluster.waitForStatus('green', 60_000);
  console.log(
    JSON.stringify({
      kind: 'local-cluster',
      url: cluster.url,
      version: cluster.version,
      nodes: cluster.nodes.map((n) => ({ name: n.name, url: n.url, pid: n.pid })),
      status: green ? 'green' : 'yellow',
    }),
  );
  console.error(`export ELASTICSEARCH_URL=${cluster.url}`);
  stop = cluster.stop;
}
const shutdown = async () => {
  await stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
setInterval(() => {}, 1 << 30);
