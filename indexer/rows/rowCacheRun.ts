/**
 * The row cache's part in a run (full or `update`): whether the manifest's address sources can have one (UTF-8 CSV
 * only) and writing the new generation's once it is complete (deleting those of generations no longer kept is
 * `pipeline/rowCachePruning.ts`). The cache only makes the next `update` faster: failing to write one is a warning, never a failed run.
 */
import { resolve } from 'node:path';
import type { Logger } from '../base/logger.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import { isUtf8Name } from '../base/encodingNames.js';
import type { AddressRows } from './addressRows.js';
import { DerivationMemo, type MemoEntries } from './derivationMemo.js';
import type { RowCache } from './rowCache.js';
import { RowCacheBuilder } from './rowCacheBuilder.js';
import { writeRowCache } from './rowCacheFile.js';
import { rowContextDigest } from './rowContext.js';

/** Where row caches live unless the run says otherwise (`--row-cache DIR`). */
export const DEFAULT_ROW_CACHE_DIR = 'row-cache';

export function rowCacheDir(dir: string | undefined): string {
  return resolve(dir ?? DEFAULT_ROW_CACHE_DIR);
}

/** Why the manifest's addresses cannot be cached row by row, or undefined when they can. */
export function notCacheable(manifest: Manifest): string | undefined {
  const sources = manifest.levels.addresses ?? [];
  if (!sources.length) return 'the manifest has no address sources';
  const other = sources.find((s) => s.format !== 'csv' || !isUtf8Name(s.encoding));
  return other ? `${other.file}: rows are cached for UTF-8 CSV address sources only` : undefined;
}

/**
 * A run's row cache: where it lives, why the manifest's addresses cannot have one (undefined when they can), and the
 * digest of what its rows are derived with, hashed while the levels load (a file that cannot be read only means no
 * row cache). One for a full run and `update` alike.
 */
export interface RunRowCache {
  dir: string;
  unfit: string | undefined;
  context: Promise<string | undefined> | undefined;
}

export function runRowCache(manifest: Manifest, dir: string | undefined): RunRowCache {
  const unfit = notCacheable(manifest);
  return {
    dir: rowCacheDir(dir),
    unfit,
    context: unfit ? undefined : rowContextDigest(manifest).catch(() => undefined),
  };
}

/**
 * The rows a run records, if it can have any: an update's start with the strings of the live cache it replays and
 * with the live generation's derivation memo.
 */
export function addressRowsOf(
  cache: RunRowCache,
  from?: { cache: RowCache; memo: MemoEntries },
): AddressRows | undefined {
  return cache.unfit ? undefined : { builder: new RowCacheBuilder(from?.cache), memo: new DerivationMemo(from?.memo) };
}

/** Writes the new generation's row cache (a warning, not a failure, when it cannot). */
export async function saveRowCache(
  cache: RunRowCache,
  where: { prefix: string; generation: string; log: Logger },
  rows: AddressRows | undefined,
): Promise<void> {
  const context = await cache.context;
  if (!rows || !context) return;
  const { prefix, generation, log } = where;
  const dir = cache.dir;
  try {
    const { memo } = rows;
    const path = await writeRowCache(dir, { prefix, generation, context }, rows.builder, memo.entries);
    log.info(
      { path, rows: rows.builder.length, memo: { entries: memo.entries.size, hits: memo.hits } },
      'row cache written',
    );
  } catch (error) {
    log.warn({ dir, error: (error as Error).message }, 'row cache not written: the next update reads in full');
  }
}
