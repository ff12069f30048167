import { describe, expect, it } from 'vitest';
import { loadingSettings, restoredSettings } from '../../../../indexer/generations/generationIndexes.js';
import { loadDevelopmentConfig } from '../../../../core/config/development.js';
import { loadIndexerConfig } from '../../../../core/config/indexer.js';
import { splitElasticsearchUrls } from '../../../../core/config/rules.js';
import { ConfigError, loadConfig } from '../../../../src/config/service.js';
import { createElasticsearchClient } from '../../../../core/elasticsearch/client.js';
import { indexDefinition } from '../../../../core/elasticsearch/mappings.js';

describe('a multi-node ELASTICSEARCH_URL', () => {
  it('is one normalised comma-separated list for the service, the indexer and the launcher', () => {
    const text = ' http://127.0.0.1:9200 , http://127.0.0.1:9201,,http://127.0.0.1:9202 ';
    const normalised = 'http://127.0.0.1:9200,http://127.0.0.1:9201,http://127.0.0.1:9202';
    expect(loadConfig({ ELASTICSEARCH_URL: text }).elasticsearchUrl).toBe(normalised);
    expect(loadIndexerConfig({ ELASTICSEARCH_URL: text }).elasticsearchUrl).toBe(normalised);
    expect(loadDevelopmentConfig({ ELASTICSEARCH_URL: text }).elasticsearchUrl).toBe(normalised);
    expect(splitElasticsearchUrls(normalised)).toHaveLength(3);
    expect(loadConfig({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200' }).elasticsearchUrl).toBe('http://127.0.0.1:9200');
  });

  it('names a bad entry', () => {
    expect(() => loadConfig({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200,not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ ELASTICSEARCH_URL: ' , ' })).toThrow(/ELASTICSEARCH_URL/);
  });

  it('gives the client every node', async () => {
    const client = createElasticsearchClient({
      url: 'http://127.0.0.1:9200,http://127.0.0.1:9201',
      requestTimeoutMs: 1000,
    });
    expect(client.connectionPool.connections.map((c) => c.url.port)).toEqual(['9200', '9201']);
    await client.close();
  });
});

describe('INDEX_SHARDS and INDEX_REPLICAS', () => {
  it('are optional integers of the indexer configuration', () => {
    expect(loadIndexerConfig({})).toMatchObject({ indexShards: undefined, indexReplicas: undefined });
    expect(loadIndexerConfig({ INDEX_SHARDS: '3', INDEX_REPLICAS: '1' })).toMatchObject({
      indexShards: 3,
      indexReplicas: 1,
    });
    expect(() => loadIndexerConfig({ INDEX_SHARDS: '0' })).toThrow(ConfigError);
    expect(() => loadIndexerConfig({ INDEX_REPLICAS: '-1' })).toThrow(ConfigError);
  });

  it('load with the shards and no replica, then restore the replica count instead of auto-expansion', () => {
    const def = indexDefinition('addresses');
    const loading = loadingSettings(def, { shards: 3, replicas: 1 });
    expect(loading['index.number_of_shards']).toBe(3);
    expect(loading['index.number_of_replicas']).toBe(0);
    expect(restoredSettings(def, { replicas: 1 })).toEqual({
      'index.refresh_interval': '1s',
      'index.number_of_replicas': 1,
    });
    expect(restoredSettings(def, {})).toEqual({ 'index.refresh_interval': '1s', 'index.auto_expand_replicas': '0-1' });
  });
});
