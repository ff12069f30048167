/**
 * A reader polling a prefix's aliases while a run or an update swaps them: each answer is one request over every
 * alias (so a mix of generations or a missing kind cannot hide between requests), telling which generations its
 * documents came from and how many of each kind.
 */
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS, type IndexKind } from '../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../core/elasticsearch/indexNames.js';
import { generationOf } from '../../indexer/generations/generationIndexes.js';

/** One answer over the five aliases of a prefix: the generations its documents came from and how many of each kind. */
export interface Observation {
  generations: string[];
  perKind: Partial<Record<IndexKind, number>>;
  error?: string;
}

/** The documents of each kind in `generation` of `p`. */
export async function generationCounts(
  client: Client,
  p: string,
  generation: string,
): Promise<Record<IndexKind, number>> {
  const counts = {} as Record<IndexKind, number>;
  for (const kind of INDEX_KINDS) {
    counts[kind] = (await client.count({ index: generationIndexName(p, kind, generation) })).count;
  }
  return counts;
}

export async function observeGenerations(client: Client, p: string): Promise<Observation> {
  try {
    const res = await client.search({
      index: INDEX_KINDS.map((k) => aliasName(p, k)).join(','),
      size: 0,
      aggs: { by_index: { terms: { field: '_index', size: 20 } } },
    });
    const generations = new Set<string>();
    const perKind: Partial<Record<IndexKind, number>> = {};
    for (const b of (res.aggregations?.by_index as { buckets: { key: string; doc_count: number }[] }).buckets) {
      for (const kind of INDEX_KINDS) {
        const g = generationOf(p, kind, b.key);
        if (g) {
          generations.add(g);
          perKind[kind] = b.doc_count;
        }
      }
    }
    return { generations: [...generations], perKind };
  } catch (error) {
    return { generations: [], perKind: {}, error: (error as Error).message };
  }
}

/** Polls `p` every 10 ms while `work` runs, and once more after it (the last answer comes after any swap). */
export async function pollWhile<T>(
  client: Client,
  p: string,
  work: () => Promise<T>,
): Promise<{ result: T; seen: Observation[] }> {
  const seen: Observation[] = [];
  let running = true;
  const reader = (async () => {
    for (let last = false; !last;) {
      last = !running;
      seen.push(await observeGenerations(client, p));
      if (!last) await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    return { result: await work(), seen };
  } finally {
    running = false;
    await reader;
  }
}

/**
 * What was wrong with the answers, given each generation's documents counted once nothing changes: an error, a
 * mix of generations, or a kind not whole. Empty: every answer was whole and from one generation.
 */
export function readerFailures(seen: Observation[], whole: Record<string, Record<IndexKind, number>>): string[] {
  return seen.flatMap(({ generations, perKind, error }) => {
    if (error) return [error];
    const [only] = generations;
    if (generations.length !== 1 || !only) return [`generations ${generations.join(',') || 'none'}`];
    return INDEX_KINDS.filter((kind) => perKind[kind] !== whole[only]?.[kind]).map(
      (kind) => `${only} ${kind} count ${perKind[kind]}`,
    );
  });
}

/** The generations the answers came from, in the order they changed. */
export function swapOrder(seen: Observation[]): (string | undefined)[] {
  return seen.map((o) => o.generations[0]).filter((g, i, all) => g !== all[i - 1]);
}
