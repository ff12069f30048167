/**
 * Versioned indexes behind aliases: create a generation, finish it, swap every alias to it in one
 * atomic `_aliases` call, roll back, prune, and report. The API only ever reads the aliases.
 */
import { type Client, errors } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../src/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../src/elasticsearch/indexNames.js';
import { type IndexDefinition, indexDefinition } from '../src/elasticsearch/mappings.js';

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
export function loadingSettings(def: IndexDefinition): Settings {
  const flat = flattenIndexSettings(def.settings);
  delete flat['index.auto_expand_replicas'];
  flat['index.number_of_replicas'] = 0;
  flat['index.refresh_interval'] = '-1';
  return flat;
}

/** What the mapping file says, for the settings loading changed (null resets to the default). */
export function restoredSettings(def: IndexDefinition): Settings {
  const flat = flattenIndexSettings(def.settings);
  const out: Settings = {
    'index.refresh_interval': flat['index.refresh_interval'] ?? null,
  };
  if (flat['index.auto_expand_replicas'] !== undefined) {
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

export async function createGenerationIndex(client: Client, index: string, kind: IndexKind): Promise<void> {
  const def = indexDefinition(kind);
  await client.indices.create({
    index,
    settings: loadingSettings(def),
    mappings: def.mappings as never,
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

/** Restore the file's settings, make everything searchable, and merge to one segment for reads. */
export async function finishGenerationIndex(client: Client, index: string, kind: IndexKind): Promise<void> {
  const def = indexDefinition(kind);
  await patiently(() => client.indices.putSettings({ index, settings: restoredSettings(def) }));
  // The first refresh after a bulk load with refresh off publishes every buffered document.
  await patiently(() => client.indices.refresh({ index }));
  await forceMergeToOneSegment(client, index);
  await patiently(() => client.cluster.health({ index, wait_for_status: 'yellow', timeout: '30s' }));
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

export interface GenerationInfo {
  generation: string;
  indexes: Partial<Record<IndexKind, { index: string; documents: number; complete: boolean }>>;
  /** All three kinds present and marked complete: the only generations rollback will go to. */
  complete: boolean;
  live: boolean;
}

/** Which index each alias points at now (undefined when the alias does not exist yet). */
export async function liveIndexes(client: Client, prefix: string): Promise<Partial<Record<IndexKind, string[]>>> {
  const out: Partial<Record<IndexKind, string[]>> = {};
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    const res = await client.indices.getAlias({ name: alias }, { ignore: [404] });
    const names = Object.keys((res ?? {}) as Record<string, unknown>).filter(
      (name) => name !== 'error' && name !== 'status',
    );
    if (names.length) out[kind] = names;
  }
  return out;
}

export async function liveGeneration(client: Client, prefix: string): Promise<string | undefined> {
  const live = await liveIndexes(client, prefix);
  const generations = new Set<string>();
  for (const kind of INDEX_KINDS) {
    for (const index of live[kind] ?? []) {
      const g = generationOf(prefix, kind, index);
      if (g) generations.add(g);
    }
  }
  return generations.size === 1 ? [...generations][0] : undefined;
}

/** `npm start` asks this before serving: no aliases means an empty cluster that needs the sample. */
export async function aliasesExist(client: Client, prefix: string): Promise<boolean> {
  for (const kind of INDEX_KINDS) {
    if (!(await client.indices.existsAlias({ name: aliasName(prefix, kind) }))) return false;
  }
  return true;
}

export async function listGenerations(client: Client, prefix: string): Promise<GenerationInfo[]> {
  const pattern = INDEX_KINDS.map((kind) => `${aliasName(prefix, kind)}-*`).join(',');
  const indices = (await client.indices.get({ index: pattern, expand_wildcards: 'all' }, { ignore: [404] })) as Record<
    string,
    { mappings?: { _meta?: { indexer?: { generation?: string } } }; aliases?: Record<string, unknown> }
  >;
  const byGeneration = new Map<string, GenerationInfo>();
  for (const [index, info] of Object.entries(indices ?? {})) {
    for (const kind of INDEX_KINDS) {
      const generation = generationOf(prefix, kind, index);
      if (!generation) continue;
      let g = byGeneration.get(generation);
      if (!g) {
        g = { generation, indexes: {}, complete: false, live: false };
        byGeneration.set(generation, g);
      }
      const complete = info.mappings?._meta?.indexer?.generation === generation;
      const count = await client.count({ index }, { ignore: [404] }).catch(() => undefined);
      g.indexes[kind] = { index, documents: (count as { count?: number } | undefined)?.count ?? 0, complete };
      if (info.aliases && aliasName(prefix, kind) in info.aliases) g.live = true;
    }
  }
  for (const g of byGeneration.values()) {
    g.complete = INDEX_KINDS.every((kind) => g.indexes[kind]?.complete === true);
  }
  return [...byGeneration.values()].sort((a, b) => b.generation.localeCompare(a.generation));
}

/**
 * Points every alias at `generation` in ONE `_aliases` request: readers see the old generation or
 * the new one, never a mix and never nothing. Removing by exact name makes a concurrent change fail
 * the whole request instead of leaving two indexes behind one alias.
 */
export async function swapAliases(client: Client, prefix: string, generation: string): Promise<void> {
  const live = await liveIndexes(client, prefix);
  const actions: Record<string, { index: string; alias: string }>[] = [];
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    const target = generationIndexName(prefix, kind, generation);
    for (const index of live[kind] ?? []) {
      if (index !== target) actions.push({ remove: { index, alias } });
    }
    if (!(live[kind] ?? []).includes(target)) actions.push({ add: { index: target, alias } });
  }
  if (actions.length) await client.indices.updateAliases({ actions });
}

export interface RollbackResult {
  from: string;
  to: string;
}

export class RollbackError extends Error {
  override name = 'RollbackError';
}

/** Back to the newest complete generation older than the live one. */
export async function rollback(client: Client, prefix: string): Promise<RollbackResult> {
  const from = await liveGeneration(client, prefix);
  if (!from) throw new RollbackError(`the aliases of prefix "${prefix}" do not point at one generation`);
  const generations = await listGenerations(client, prefix);
  const target = generations.find((g) => g.complete && g.generation < from);
  if (!target) throw new RollbackError(`no complete generation older than ${from} to roll back to`);
  await swapAliases(client, prefix, target.generation);
  return { from, to: target.generation };
}

/**
 * Deletes generations beyond the newest `keep` complete ones. Never the live one, nor the newest
 * complete one before it (what rollback would use), nor anything newer than live (a run in flight).
 * Incomplete leftovers older than live are debris of killed runs and go.
 */
export async function prune(client: Client, prefix: string, keep: number): Promise<string[]> {
  const generations = await listGenerations(client, prefix);
  const live = generations.find((g) => g.live)?.generation;
  const previous = live ? generations.find((g) => g.complete && g.generation < live)?.generation : undefined;
  const kept = new Set(
    generations
      .filter((g) => g.complete)
      .slice(0, Math.max(keep, 0))
      .map((g) => g.generation),
  );
  const deleted: string[] = [];
  for (const g of generations) {
    if (g.generation === live || g.generation === previous || kept.has(g.generation)) continue;
    if (live && g.generation > live) continue;
    if (!live && !g.complete) continue;
    await deleteIndexes(
      client,
      Object.values(g.indexes).map((i) => i.index),
    );
    deleted.push(g.generation);
  }
  return deleted;
}
