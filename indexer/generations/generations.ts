/**
 * Versioned indexes behind aliases: create a generation, finish it, swap every alias to it in one
 * atomic `_aliases` call, roll back, prune, and report. The API only ever reads the aliases.
 */
import { type Client, errors } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { generationOf } from './generationIndexes.js';
import { type Logger, silentLogger } from '../base/logger.js';
import { acquireRunLock, type LeaseTiming } from './runLock.js';
import { settleAliasChanges, SWAP_MASTER_TIMEOUT } from './pendingChanges.js';
import { swapOutcome, SwapOutcomeUnknownError, unknownOutcomeMessage } from './swapOutcome.js';

export interface GenerationInfo {
  generation: string;
  indexes: Partial<Record<IndexKind, { index: string; documents: number; complete: boolean }>>;
  /**
   * Every kind (INDEX_KINDS) present and marked complete: the only generations rollback will go to. A generation
   * written before a kind existed (no streets index) is therefore not complete: the API of this version could
   * not serve it.
   */
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

/**
 * Whether this prefix holds a deployment the API of this version can serve: the alias of every kind exists.
 * Asked by `npm start` and `--if-empty` (and the bench/eval scripts) before loading: a cluster without aliases,
 * or one indexed before a kind was added (no `streets` alias), gets indexed; a partial set is never served.
 */
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
 *
 * The request is sent once (no transport retry: a retry of a swap applied with its answer lost fails, the alias
 * having moved). When it fails, the aliases are read back: on `generation` = swapped (a warning, no error); as they
 * were = the request's error; unreadable or neither = SwapOutcomeUnknownError (the caller then deletes nothing). A
 * failure Elasticsearch did not answer with a refusal (a reset, a timeout, a 5xx) may leave the change on its way or
 * queued on the master: the read-back waits until it is applied or dropped (pendingChanges.ts), and when that cannot
 * be confirmed, aliases read back as they were are not taken for "not swapped" either (SwapOutcomeUnknownError).
 */
export async function swapAliases(
  client: Client,
  prefix: string,
  generation: string,
  log: Logger = silentLogger,
): Promise<void> {
  const live = await liveIndexes(client, prefix);
  const actions: Record<string, { index: string; alias: string; must_exist?: boolean }>[] = [];
  const targets = {} as Record<IndexKind, string>;
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    const target = generationIndexName(prefix, kind, generation);
    targets[kind] = target;
    for (const index of live[kind] ?? []) {
      // must_exist: without it Elasticsearch 9 answers 200 with `errors: true`, skipping a remove that found no
      // alias while applying the rest (two indexes behind one alias after a concurrent change).
      if (index !== target) actions.push({ remove: { index, alias, must_exist: true } });
    }
    if (!(live[kind] ?? []).includes(target)) actions.push({ add: { index: target, alias } });
  }
  if (!actions.length) return;
  let answered = false;
  try {
    // Elasticsearch 9 answers `errors` and `action_results`; the client's type does not list them.
    const res = (await client.indices.updateAliases(
      { actions, master_timeout: SWAP_MASTER_TIMEOUT },
      { maxRetries: 0 },
    )) as { errors?: boolean; action_results?: unknown };
    answered = true;
    if (res.errors) throw new Error(`some alias actions failed: ${JSON.stringify(res.action_results)}`);
  } catch (error) {
    const failure = (error as Error).message;
    const unknown = (readBack: string) =>
      new SwapOutcomeUnknownError(unknownOutcomeMessage(prefix, generation, failure, readBack), { cause: error });
    let unsettled: string | undefined;
    if (!answered && !refusedByElasticsearch(error)) {
      unsettled = await settleAliasChanges(client).then(
        () => undefined,
        (waitError: unknown) => (waitError as Error).message,
      );
    }
    let after: Partial<Record<IndexKind, string[]>>;
    try {
      after = await liveIndexes(client, prefix);
    } catch (readError) {
      throw unknown(`the aliases could not be read back (${(readError as Error).message})`);
    }
    const outcome = swapOutcome(after, targets);
    if (outcome === 'applied') {
      log.warn(
        { generation, error: failure },
        'the alias swap failed, but the aliases read back point at the new generation: swapped',
      );
      return;
    }
    if (outcome === 'mixed') {
      throw unknown(`the aliases read back point at a mix of generations (${JSON.stringify(after)})`);
    }
    if (unsettled === undefined) throw error;
    throw unknown(
      `the aliases read back point at ${describeGenerations(prefix, after)}, but the swap may still be carried out ` +
        `(waiting for the cluster's pending alias changes failed: ${unsettled})`,
    );
  }
}

/**
 * Elasticsearch answered the request with a refusal (4xx but 408): it was not applied and never will be. Anything
 * else (no answer, 408, a 5xx of Elasticsearch or of a proxy) says nothing about whether it will be.
 */
function refusedByElasticsearch(error: unknown): boolean {
  if (!(error instanceof errors.ResponseError)) return false;
  const status = error.meta.statusCode ?? 0;
  return status >= 400 && status < 500 && status !== 408;
}

/** "generation X" (or the generations) the aliases in `live` point at, for a message. */
function describeGenerations(prefix: string, live: Partial<Record<IndexKind, string[]>>): string {
  const generations = new Set<string>();
  for (const kind of INDEX_KINDS) {
    for (const index of live[kind] ?? []) generations.add(generationOf(prefix, kind, index) ?? index);
  }
  if (!generations.size) return 'no generation (no alias exists)';
  return `generation ${[...generations].sort().join(', ')}`;
}

export interface RollbackResult {
  from: string;
  to: string;
}

export class RollbackError extends Error {
  override name = 'RollbackError';
}

/**
 * Back to the newest complete generation older than the live one. Holds the prefix's lock meanwhile (a run's
 * prune could otherwise delete the target, and a run's swap undo the rollback); fails at once if a run holds it.
 */
export async function rollback(
  client: Client,
  prefix: string,
  lease?: Partial<LeaseTiming>,
  log: Logger = silentLogger,
): Promise<RollbackResult> {
  const lock = await acquireRunLock(client, prefix, { operation: 'rollback', generation: null }, { lease });
  try {
    const from = await liveGeneration(client, prefix);
    if (!from) throw new RollbackError(`the aliases of prefix "${prefix}" do not point at one generation`);
    const generations = await listGenerations(client, prefix);
    const target = generations.find((g) => g.complete && g.generation < from);
    if (!target) throw new RollbackError(`no complete generation older than ${from} to roll back to`);
    await lock.assertHeld();
    await swapAliases(client, prefix, target.generation, log);
    return { from, to: target.generation };
  } finally {
    await lock.release();
  }
}
