/**
 * `npm run es`: a local Elasticsearch for development and benchmarks, kept running until Ctrl-C.
 * Prints the URL to export as ELASTICSEARCH_URL.
 */
import { loadDevelopmentConfig } from '../../src/config/development.js';
import { startElasticsearch } from './provider.js';

// 1g unless ES_HEAP says otherwise: benchmarks load 2.28 M addresses into this node.
const node = await startElasticsearch({
  log: (m) => console.error(m),
  heap: loadDevelopmentConfig().launcher.heap ?? '1g',
});
console.log(JSON.stringify({ kind: node.kind, url: node.url, version: node.version }));
const shutdown = async () => {
  await node.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
setInterval(() => {}, 1 << 30);
