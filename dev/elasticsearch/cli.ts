/**
 * `npm run es`: a local Elasticsearch for development and benchmarks, kept running until Ctrl-C.
 * Prints the URL to export as ELASTICSEARCH_URL.
 */
import { startElasticsearch } from './provider.js';

const node = await startElasticsearch({ log: (m) => console.error(m), heap: process.env.ES_HEAP ?? '1g' });
console.log(JSON.stringify({ kind: node.kind, url: node.url, version: node.version }));
const shutdown = async () => {
  await node.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
setInterval(() => {}, 1 << 30);
