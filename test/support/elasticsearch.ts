import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { inject } from 'vitest';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';

export function testElasticsearchUrl(): string {
  return inject('elasticsearchUrl');
}

export function createTestClient(): Client {
  return createElasticsearchClient({ url: testElasticsearchUrl(), requestTimeoutMs: 30_000 });
}

/** Test files share one node; a unique alias prefix keeps their indexes apart. */
export function uniqueIndexPrefix(label: string): string {
  return `test-${label}-${randomBytes(3).toString('hex')}-`;
}

export { deleteIndexesWithPrefix } from './cleanup.js';
