/**
 * The larger indexes of `npm run bench:scale`: a generation of every index kind under the size's own prefix
 * (scalePrefix), built with `_reindex` from the 1x indexes (the real indexer's output) and finished, marked
 * complete and put behind aliases exactly as the indexer does, so the API serves it like any deployment.
 * Areas and buildings are copied once; addresses and streets once per copy, copies >= 2 through REPLICA_SCRIPT.
 */
import type { Client } from '@elastic/elasticsearch';
import { aliasesExist, listGenerations, swapAliases } from '../../indexer/generations.js';
import {
  createGenerationIndex,
  deleteIndexes,
  finishGenerationIndex,
  markComplete,
  newGeneration,
} from '../../indexer/generationIndexes.js';
import { INDEX_KINDS, type IndexKind } from '../../src/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../src/elasticsearch/indexNames.js';
import { REPLICA_SCRIPT, REPLICATED_KINDS, replicaDocument } from './scaleReplicas.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A `_reindex` as a task, polled: copying millions of documents outlives any client timeout. */
async function reindex(client: Client, from: string, to: string, copy: number): Promise<number> {
  const started = (await client.reindex({
    wait_for_completion: false,
    slices: 'auto',
    refresh: false,
    source: { index: from, size: 5000 },
    dest: { index: to, op_type: 'create' },
    ...(copy >= 2 ? { script: { lang: 'painless', source: REPLICA_SCRIPT, params: { copy: String(copy) } } } : {}),
  })) as { task?: string };
  for (;;) {
    await sleep(2000);
    const task = (await client.tasks.get({ task_id: started.task as string })) as {
      completed: boolean;
      error?: unknown;
      response?: { created?: number; failures?: unknown[] };
    };
    if (!task.completed) continue;
    if (task.error || (task.response?.failures?.length ?? 0) > 0) {
      throw new Error(`reindex ${from} -> ${to} (copy ${copy}) failed: ${JSON.stringify(task.error ?? task.response)}`);
    }
    return task.response?.created ?? 0;
  }
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
    let documents = 0;
    for (let copy = 1; copy <= copies; copy++) {
      log(`x${size}: ${kind} copy ${copy}/${copies}`);
      documents += await reindex(client, aliasName(sourcePrefix, kind), index, copy);
    }
    await finishGenerationIndex(client, index, kind);
    await markComplete(client, index, kind, {
      generation,
      completedAt: new Date().toISOString(),
      manifest: `bench:scale x${size} of ${sourcePrefix}`,
      documents,
    });
  }
  await swapAliases(client, prefix, generation);
  log(`x${size}: built in ${Math.round((Date.now() - started) / 1000)} s`);
  return true;
}

/**
 * The painless copy and the TypeScript one (scaleReplicas.ts) must agree: compares `sample` copied documents of
 * the last copy with replicaDocument of their originals. Throws on the first difference.
 */
export async function verifyReplicas(
  client: Client,
  sourcePrefix: string,
  prefix: string,
  size: number,
  sample = 20,
): Promise<void> {
  if (size < 2) return;
  for (const kind of REPLICATED_KINDS) {
    const originals = await client.search<Record<string, unknown>>({
      index: aliasName(sourcePrefix, kind),
      size: sample,
      sort: [{ id: 'asc' }],
    });
    for (const hit of originals.hits.hits) {
      const expected = replicaDocument(hit._source as never, size) as Record<string, unknown>;
      const actual = await client.get<Record<string, unknown>>(
        { index: aliasName(prefix, kind), id: expected.id as string },
        { ignore: [404] },
      );
      if (JSON.stringify(actual._source) !== JSON.stringify(expected)) {
        throw new Error(
          `copy ${size} of ${kind} ${hit._id} differs from replicaDocument: ${JSON.stringify(actual._source)}`,
        );
      }
    }
  }
}

/** Every index of every generation under the prefix (exact names: wildcard deletes are refused). */
export async function deletePrefix(client: Client, prefix: string): Promise<void> {
  const indexes = (await listGenerations(client, prefix)).flatMap((g) => Object.values(g.indexes).map((i) => i!.index));
  await deleteIndexes(client, indexes);
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

/** The node's heap after a collection would be ideal; the JVM gives no such number, so: used, right now. */
export async function heapStats(client: Client): Promise<HeapStats> {
  const res = await client.nodes.stats({ node_id: '_local', metric: 'jvm' });
  const jvm = Object.values(res.nodes)[0]!.jvm!;
  return { heap_used_bytes: jvm.mem!.heap_used_in_bytes!, heap_max_bytes: jvm.mem!.heap_max_in_bytes! };
}
