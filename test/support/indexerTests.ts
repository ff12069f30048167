/** What the indexer's integration tests share: a client, a scratch folder, prefixes removed after each test. */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { createTestClient, deleteIndexesWithPrefix, uniqueIndexPrefix } from './elasticsearch.js';

export interface IndexerTestSpace {
  /** Created in beforeAll, closed in afterAll. */
  readonly client: Client;
  /** A scratch folder of this file, removed after it. */
  readonly tmp: string;
  /** A prefix of the current test alone, removed after it whatever the test left there. */
  ownPrefix(label: string): string;
}

/** Registers the hooks of a test file (call at its top level) and returns what they manage. */
export function indexerTestSpace(name: string): IndexerTestSpace {
  const tmp = join(tmpdir(), `${name}-${process.pid}`);
  const prefixes: string[] = [];
  let client: Client | undefined;
  const space: IndexerTestSpace = {
    get client() {
      if (!client) throw new Error('the test client exists from beforeAll on');
      return client;
    },
    tmp,
    ownPrefix(label) {
      const p = uniqueIndexPrefix(label);
      prefixes.push(p);
      return p;
    },
  };
  beforeAll(() => {
    client = createTestClient();
    mkdirSync(tmp, { recursive: true });
  });
  afterEach(async () => {
    for (const p of prefixes.splice(0)) await deleteIndexesWithPrefix(space.client, p);
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await client?.close();
  });
  return space;
}

/** Which index each alias of `p` points at (sorted), read with `client`. */
export async function aliasTargets(client: Client, p: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const kind of INDEX_KINDS) {
    const res = await client.indices.getAlias({ name: aliasName(p, kind) }, { ignore: [404] });
    out[kind] = Object.keys(res ?? {})
      .filter((k) => k !== 'error' && k !== 'status')
      .sort();
  }
  return out;
}
