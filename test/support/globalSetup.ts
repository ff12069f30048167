import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { type RunningElasticsearch, startElasticsearch } from '../../dev/elasticsearch/provider.js';

declare module 'vitest' {
  export interface ProvidedContext {
    elasticsearchUrl: string;
    elasticsearchVersion: string;
    elasticsearchKind: string;
    /** Alias prefix of the sample data indexed once, by the real indexer, for the read-only API tests. */
    samplePrefix: string;
  }
}

let running: RunningElasticsearch | undefined;
let samplePrefix: string | undefined;

/** One real Elasticsearch for the whole run: ELASTICSEARCH_URL, else testcontainers, else the local launcher. */
export async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  running = await startElasticsearch({ log: (msg) => console.log(`[elasticsearch] ${msg}`) });
  console.log(
    `[elasticsearch] using ${running.kind} Elasticsearch ${running.version} at ${running.url} (ready after ${Date.now() - started} ms)`,
  );
  project.provide('elasticsearchUrl', running.url);
  project.provide('elasticsearchVersion', running.version);
  project.provide('elasticsearchKind', running.kind);

  samplePrefix = `test-sample-${process.pid}-`;
  const client = createElasticsearchClient({ url: running.url, requestTimeoutMs: 120_000 });
  const { runIndexing } = await import('../../indexer/commands/index.js');
  const indexed = Date.now();
  await runIndexing({
    client,
    manifestPath: resolve(import.meta.dirname, '../../datasets/sample.json'),
    indexPrefix: samplePrefix,
    progress: 'none',
  });
  console.log(`[elasticsearch] sample data indexed under "${samplePrefix}" in ${Date.now() - indexed} ms`);
  await client.close();
  project.provide('samplePrefix', samplePrefix);
}

export async function teardown(): Promise<void> {
  // A shared external cluster keeps running: remove what this run created there.
  if (running?.kind === 'external' && samplePrefix) {
    const client = createElasticsearchClient({ url: running.url, requestTimeoutMs: 30_000 });
    const { deleteIndexesWithPrefix } = await import('./cleanup.js');
    await deleteIndexesWithPrefix(client, samplePrefix).catch(() => {});
    await client.close();
  }
  await running?.stop();
}
