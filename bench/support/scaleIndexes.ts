/**
 * The larger indexes of `npm run bench:scale`: a generation of every index kind under the size's own prefix
 * (scalePrefix), copied from the 1x indexes (the real indexer's output) and finished, marked complete and put
 * behind aliases exactly as the indexer does, so the API serves it like any deployment. Areas and buildings are
 * copied once; addresses and streets once per copy, copies >= 2 through replicaDocument.
 *
 * The copy reads with a scroll and writes with `_bulk` from this process: the Elasticsearch distribution the
 * local launcher runs (integ-test-zip) has neither the reindex module nor painless.
 */
import type { Client } from '@elastic/elasticsearch';
import { aliasesExist, listGenerations, swapAliases } from '../../indexer/generations/generations.js';
import {
  createGenerationIndex,
  deleteIndexes,
  finishGenerationIndex,
  markComplete,
  newGeneration,
} from '../../indexer/generations/generationIndexes.js';
import { lockIndexName } from '../../indexer/generations/runLock.js';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { REPLICATED_KINDS, replicaDocument } from './scaleReplicas.js';

type Doc = { id: string; source_key: string; city: string; city_key: string };

/** Documents per scroll page: areas carry whole boundaries (a country's is megabytes), addresses are small. */
const PAGE_SIZE: Record<IndexKind, number> = {
  areas: 100,
  buildings: 1000,
  addresses: 5000,
  streets: 5000,
  places: 5000,
};
/** Bulk requests in flight at once: one being written while the next page is read and serialised. */
const IN_FLIGHT = 2;

async function* scrollPages(client: Client, index: string, size: number): AsyncGenerator<Doc[]> {
  let res = await client.search<Doc>({ index, scroll: '5m', size, sort: ['_doc'] });
  try {
    while (res.hits.hits.length > 0) {
      yield res.hits.hits.map((h) => h._source as Doc);
      res = await client.scroll<Doc>({ scroll_id: res._scroll_id!, scroll: '5m' });
    }
  } finally {
    if (res._scroll_id) await client.clearScroll({ scroll_id: res._scroll_id }).catch(() => {});
  }
}

async function bulkWrite(client: Client, index: string, docs: Doc[]): Promise<void> {
  const operations = docs.flatMap((doc) => [{ create: { _index: index, _id: doc.id } }, doc]);
  const res = await client.bulk({ operations, refresh: false, filter_path: 'errors,items.*.error' });
  if (res.errors) {
    const first = res.items.find((item) => Object.values(item)[0]?.error);
    throw new Error(`bulk copy into ${index} failed: ${JSON.stringify(first)}`);
  }
}

/** Copies every document of `from` into `to`, `copies` times (copy k through replicaDocument). */
async function copyIndex(client: Client, kind: IndexKind, from: string, to: string, copies: number): Promise<number> {
  const pending = new Set<Promise<void>>();
  let written = 0;
  for await (const page of scrollPages(client, from, PAGE_SIZE[kind])) {
    const docs: Doc[] = [];
    for (let copy = 1; copy <= copies; copy++) for (const doc of page) docs.push(replicaDocument(doc, copy));
    const write = bulkWrite(client, to, docs).finally(() => pending.delete(write));
    pending.add(write);
    written += docs.length;
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  }
  await Promise.all(pending);
  return written;
}

/**
 * Builds `size` copies of the data under `prefix` from the aliases of `sourcePrefix` (1x), unless that prefix
 * already serves a complete generation (a rerun reuses it). Returns whether it built.
 */
export async function ensureReplicated(
  client: Client,
  sourcePrefix: string,
  prefix: string,
  size: number,
  log: (m: string) => void,
): Promise<boolean> {
  if (await aliasesExist(client, prefix)) {
    log(`x${size}: already built under "${prefix}"`);
    return false;
  }
  const generation = newGeneration();
  const started = Date.now();
  for (const kind of INDEX_KINDS) {
    const index = generationIndexName(prefix, kind, generation);
    await createGenerationIndex(client, index, kind);
    const copies = REPLICATED_KINDS.includes(kind) ? size : 1;
    const kindStarted = Date.now();
    const documents = await copyIndex(client, kind, aliasName(sourcePrefix, kind), index, copies);
    await finishGenerationIndex(client, index, kind);
    await markComplete(client, index, kind, {
      generation,
      completedAt: new Date().toISOString(),
      manifest: `bench:scale x${size} of ${sourcePrefix}`,
      documents,
    });
    log(
      `x${size}: ${kind} ${documents} documents (${copies} copies) in ${Math.round((Date.now() - kindStarted) / 1000)} s`,
    );
  }
  await swapAliases(client, prefix, generation);
  log(`x${size}: built in ${Math.round((Date.now() - started) / 1000)} s`);
  return true;
}

/** Every index of every generation under the prefix, and the indexer's lock index (exact names: no wildcards). */
export async function deletePrefix(client: Client, prefix: string): Promise<void> {
  const indexes = (await listGenerations(client, prefix)).flatMap((g) => Object.values(g.indexes).map((i) => i.index));
  await deleteIndexes(client, [...indexes, lockIndexName(prefix)]);
}

export interface IndexKindStats {
  kind: IndexKind;
  docs: number;
  store_bytes: number;
  segments: number;
  /** Lucene's on-heap segment memory where the node still reports it (most of it moved off heap in 8.x). */
  segment_memory_bytes: number | null;
}

/** Size on disk, documents and segments of each kind's live index under the prefix (primaries: no replicas here). */
export async function indexStats(client: Client, prefix: string): Promise<IndexKindStats[]> {
  const out: IndexKindStats[] = [];
  for (const kind of INDEX_KINDS) {
    const res = await client.indices.stats({ index: aliasName(prefix, kind), metric: ['docs', 'store', 'segments'] });
    const primaries = res._all.primaries!;
    const memory = (primaries.segments as { memory_in_bytes?: number } | undefined)?.memory_in_bytes;
    out.push({
      kind,
      docs: primaries.docs?.count ?? 0,
      store_bytes: primaries.store?.size_in_bytes ?? 0,
      segments: primaries.segments?.count ?? 0,
      segment_memory_bytes: memory ?? null,
    });
  }
  return out;
}

export interface HeapStats {
  heap_used_bytes: number;
  heap_max_bytes: number;
}

/** The node's heap used, right now (the JVM gives no "live after a collection" figure without forcing one). */
export async function heapStats(client: Client): Promise<HeapStats> {
  const res = await client.nodes.stats({ node_id: '_local', metric: 'jvm' });
  const jvm = Object.values(res.nodes)[0]!.jvm!;
  return { heap_used_bytes: jvm.mem!.heap_used_in_bytes!, heap_max_bytes: jvm.mem!.heap_max_in_bytes! };
}
