/**
 * One generation's indexes: their names and settings, created for loading (no replicas, no refresh), finished
 * (refreshed, force-merged, replicas restored, green) and marked complete. The alias side is generations.ts.
 */
import type { SourceAttribution } from '../../core/elasticsearch/attribution.js';
import { type Client, errors } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { type IndexDefinition, indexDefinition } from '../../core/elasticsearch/mappings.js';

/** UTC `YYYYMMDDHHmmssSSS`: sorts as text in time order. */
export function newGeneration(now: Date = new Date()): string {
  return now.toISOString().replace(/[-:T.Z]/g, '');
}

const GENERATION_RE = /^\d{17}$/;

export function generationOf(prefix: string, kind: IndexKind, index: string): string | undefined {
  const head = `${aliasName(prefix, kind)}-`;
  if (!index.startsWith(head)) return undefined;
  const generation = index.slice(head.length);
  return GENERATION_RE.test(generation) ? generation : undefined;
}

type Settings = Record<string, unknown>;

/** `{index: {a: 1}}` and `{"index.a": 1}` are the same setting; work on the flat form. */
export function flattenIndexSettings(settings: Settings): Settings {
  const flat: Settings = {};
  const walk = (value: unknown, path: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value as Settings)) walk(v, path ? `${path}.${k}` : k);
    } else {
      flat[path] = value;
    }
  };
  walk(settings, '');
  const out: Settings = {};
  for (const [k, v] of Object.entries(flat)) out[k.startsWith('index.') ? k : `index.${k}`] = v;
  return out;
}

/**
 * While loading: no refreshes and no replicas (each document is written once, not twice, and
 * segments are not published every second). auto_expand_replicas would override the replica count.
 */
export function loadingSettings(def: IndexDefinition, layout: IndexLayout = {}): Settings {
  const flat = flattenIndexSettings(def.settings);
  if (layout.shards !== undefined) flat['index.number_of_shards'] = layout.shards;
  delete flat['index.auto_expand_replicas'];
  flat['index.number_of_replicas'] = 0;
  flat['index.refresh_interval'] = '-1';
  return flat;
}

/**
 * Shards and replicas of a new generation (INDEX_SHARDS, INDEX_REPLICAS); unset, the mapping file's (1 shard,
 * auto_expand_replicas 0-1: no replica on one node, one on more).
 */
export interface IndexLayout {
  shards?: number | undefined;
  replicas?: number | undefined;
}

/** What the mapping file (or the layout's replica count) says, for the settings loading changed (null resets to the default). */
export function restoredSettings(def: IndexDefinition, layout: IndexLayout = {}): Settings {
  const flat = flattenIndexSettings(def.settings);
  const out: Settings = {
    'index.refresh_interval': flat['index.refresh_interval'] ?? null,
  };
  if (layout.replicas !== undefined) {
    out['index.number_of_replicas'] = layout.replicas;
  } else if (flat['index.auto_expand_replicas'] !== undefined) {
    out['index.auto_expand_replicas'] = flat['index.auto_expand_replicas'];
  } else {
    out['index.number_of_replicas'] = flat['index.number_of_replicas'] ?? 1;
  }
  return out;
}

export interface CompletionInfo {
  generation: string;
  completedAt: string;
  manifest: string;
  documents: number;
  /** What a later `update` starts from (pipeline/completion.ts). */
  basis?: object;
  /** Whom the generation's data is from, per level and country (core/elasticsearch/attribution.ts). */
  attribution?: readonly SourceAttribution[];
}

export class AliasConflictError extends Error {
  override name = 'AliasConflictError';
}

/** An alias cannot take the name of a concrete index: find that out before loading anything. */
export async function assertAliasNamesFree(client: Client, prefix: string): Promise<void> {
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    const exists = await client.indices.exists({ index: alias });
    if (!exists) continue;
    const isAlias = await client.indices.existsAlias({ name: alias });
    if (!isAlias) {
      throw new AliasConflictError(
        `"${alias}" is a concrete index, so it cannot become an alias; delete it or use another --prefix`,
      );
    }
  }
}

/** More replicas than data nodes to hold them would never go green: say so before loading anything. */
export async function assertLayoutFits(client: Client, layout: IndexLayout = {}): Promise<void> {
  if (!layout.replicas) return;
  const health = await client.cluster.health();
  if (layout.replicas >= health.number_of_data_nodes) {
    throw new Error(
      `INDEX_REPLICAS=${layout.replicas} needs at least ${layout.replicas + 1} data nodes; the cluster has ${health.number_of_data_nodes}`,
    );
  }
}

export async function createGenerationIndex(
  client: Client,
  index: string,
  kind: IndexKind,
  layout: IndexLayout = {},
): Promise<void> {
  const def = indexDefinition(kind);
  await client.indices.create({
    index,
    settings: loadingSettings(def, layout),
    mappings: def.mappings,
    wait_for_active_shards: 1,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The client's own timeout caps every request (undici cannot extend it per request), and callers
 * pass clients with short ones (the API's). A refresh that timed out still completes on the server,
 * so asking again is safe and soon cheap.
 */
async function patiently<T>(what: () => Promise<T>, deadline = Date.now() + FINISH_TIMEOUT_MS): Promise<T> {
  for (;;) {
    try {
      return await what();
    } catch (error) {
      if (!(error instanceof errors.TimeoutError) || Date.now() > deadline) throw error;
      await sleep(1_000);
    }
  }
}

/** Force-merge as a task and poll it, so no single request has to outlive the client's timeout. */
async function forceMergeToOneSegment(client: Client, index: string): Promise<void> {
  const started = (await client.indices.forcemerge({ index, max_num_segments: 1, wait_for_completion: false })) as {
    task?: string;
  };
  if (!started.task) return;
  const deadline = Date.now() + FINISH_TIMEOUT_MS;
  for (;;) {
    const task = await patiently(() => client.tasks.get({ task_id: started.task as string }), deadline);
    if (task.completed) {
      if (task.error) throw new Error(`force-merge of ${index} failed: ${JSON.stringify(task.error)}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`force-merge of ${index} did not finish in time`);
    await sleep(500);
  }
}

/**
 * Make everything searchable, merge to one segment for reads, then restore the replicas (they copy the merged
 * segment instead of merging on their own) and wait for green: the alias swap comes after every copy is there.
 */
export async function finishGenerationIndex(
  client: Client,
  index: string,
  kind: IndexKind,
  layout: IndexLayout = {},
  { forceMerge = true } = {},
): Promise<void> {
  const def = indexDefinition(kind);
  const { 'index.refresh_interval': refreshInterval, ...replicas } = restoredSettings(def, layout);
  await patiently(() => client.indices.putSettings({ index, settings: { 'index.refresh_interval': refreshInterval } }));
  // The first refresh after a bulk load with refresh off publishes every buffered document.
  await patiently(() => client.indices.refresh({ index }));
  // `update`'s clones skip it: merging would rewrite the whole index for a few changed documents.
  if (forceMerge) await forceMergeToOneSegment(client, index);
  await patiently(() => client.indices.putSettings({ index, settings: replicas }));
  await waitForGreen(client, index);
}

async function waitForGreen(client: Client, index: string): Promise<void> {
  const deadline = Date.now() + FINISH_TIMEOUT_MS;
  for (;;) {
    const health = await patiently(
      // 408 is the answer when the wait timed out: ask again until the deadline.
      () => client.cluster.health({ index, wait_for_status: 'green', timeout: '2s' }, { ignore: [408] }),
      deadline,
    );
    if (health.status === 'green') return;
    if (Date.now() > deadline) throw new Error(`${index} did not become green in time (${health.status})`);
    await sleep(500);
  }
}

const FINISH_TIMEOUT_MS = 30 * 60_000;

/** Marks a generation index as complete in its mapping _meta, keeping the file's own _meta. */
export async function markComplete(
  client: Client,
  index: string,
  kind: IndexKind,
  info: CompletionInfo,
): Promise<void> {
  const fileMeta = (indexDefinition(kind).mappings._meta ?? {}) as Record<string, unknown>;
  await client.indices.putMapping({
    index,
    _meta: {
      ...fileMeta,
      indexer: {
        generation: info.generation,
        completed_at: info.completedAt,
        manifest: info.manifest,
        documents: info.documents,
        ...(info.basis ? { update: info.basis } : {}),
        ...(info.attribution ? { attribution: info.attribution } : {}),
      },
    },
  });
}

export async function deleteIndexes(client: Client, indexes: readonly string[]): Promise<void> {
  for (const index of indexes) {
    // Exact names only: wildcard deletes are refused by the cluster, and rightly so.
    await client.indices.delete({ index }, { ignore: [404] });
  }
}
