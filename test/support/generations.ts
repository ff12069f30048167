/**
 * Generations made directly for the indexer's tests, without a run: a test that only needs "some live generation
 * whose aliases must stay put" gets one in well under a second instead of a 10-20 s sample run.
 */
import type { Client } from '@elastic/elasticsearch';
import { swapAliases } from '../../indexer/generations/generations.js';
import { createGenerationIndex, markComplete } from '../../indexer/generations/generationIndexes.js';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { searchAllPages } from '../../src/indexes/paging.js';

/** Every generation index of `prefix`, sorted (aliases and other prefixes' indexes left out). */
export async function generationIndexesOf(client: Client, prefix: string): Promise<string[]> {
  const res = await client.indices.get(
    { index: INDEX_KINDS.map((k) => `${aliasName(prefix, k)}-*`).join(','), expand_wildcards: 'all' },
    { ignore: [404] },
  );
  return Object.keys(res ?? {})
    .filter((k) => k !== 'error' && k !== 'status')
    .sort();
}

/** The names of the indexes of `generation` (one per kind), sorted as generationIndexesOf lists them. */
export function generationIndexNames(prefix: string, generation: string): string[] {
  return INDEX_KINDS.map((kind) => generationIndexName(prefix, kind, generation)).sort();
}

/**
 * The indexes of `generation` (one per kind), holding `documents` (refreshed), marked complete the way a run marks them.
 * `documents` are written as given: strict mappings refuse unknown fields, so give each kind's real fields.
 */
export async function createCompleteGeneration(
  client: Client,
  prefix: string,
  generation: string,
  documents: Partial<Record<IndexKind, Record<string, unknown>[]>> = {},
): Promise<Record<IndexKind, string>> {
  const indexes = {} as Record<IndexKind, string>;
  // The kinds side by side: each index's creation waits on the cluster, not on the others.
  await Promise.all(
    INDEX_KINDS.map(async (kind) => {
      const index = generationIndexName(prefix, kind, generation);
      await createGenerationIndex(client, index, kind);
      const docs = documents[kind] ?? [];
      if (docs.length) {
        const res = await client.bulk({
          refresh: true,
          operations: docs.flatMap((doc) => [{ index: { _index: index, _id: String(doc.id) } }, doc]),
        });
        if (res.errors) throw new Error(`seeding ${index} failed: ${JSON.stringify(res.items[0])}`);
      }
      await markComplete(client, index, kind, {
        generation,
        completedAt: new Date().toISOString(),
        manifest: 'test',
        documents: docs.length,
      });
      indexes[kind] = index;
    }),
  );
  return indexes;
}

/** A complete generation behind the aliases of `prefix`, as a previous run would have left it. */
export async function createLiveGeneration(
  client: Client,
  prefix: string,
  generation: string,
  documents: Partial<Record<IndexKind, Record<string, unknown>[]>> = {},
): Promise<Record<IndexKind, string>> {
  const indexes = await createCompleteGeneration(client, prefix, generation, documents);
  await swapAliases(client, prefix, generation);
  return indexes;
}

/** Every document of a kind behind the prefix's alias, by id (its `_source`, for comparing generations). */
export async function documentsOf(client: Client, prefix: string, kind: IndexKind): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const pages = searchAllPages<unknown>(client, {
    index: aliasName(prefix, kind),
    query: { match_all: {} },
    sort: [{ id: 'asc' }],
    source: true,
    pageSize: 5000,
  });
  for await (const hits of pages) for (const h of hits) out.set(h._id as string, h._source);
  return out;
}

/** Every document of every kind behind the prefix's aliases, by kind and id, as JSON (generations compared whole). */
export async function allDocumentsOf(client: Client, prefix: string): Promise<Record<IndexKind, Map<string, string>>> {
  const out = {} as Record<IndexKind, Map<string, string>>;
  for (const kind of INDEX_KINDS) {
    const docs = await documentsOf(client, prefix, kind);
    out[kind] = new Map([...docs].map(([id, doc]) => [id, JSON.stringify(doc)]));
  }
  return out;
}
