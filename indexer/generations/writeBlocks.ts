/**
 * The write block `update` puts on a live index to clone it (`_clone` needs its source write-blocked; the API only
 * reads, so it notices nothing), and what is left of it after a crash. Before blocking an index the indexer files a
 * marker in the prefix's lock index (`write-block:<index>`: who, when, the setting it found), and once cloned it puts
 * the setting back as it found it and removes the marker. So a block with a marker was left by a killed indexer: the
 * next run or update on the prefix lifts it (under the lock), and `status` says so. A block without a marker was set
 * by someone else: the indexer clones through it and leaves it as it was.
 */
import { hostname } from 'node:os';
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { type Logger, silentLogger } from '../base/logger.js';
import type { GenerationInfo } from './generations.js';
import { lockIndexName } from './runLock.js';

const SETTING = 'index.blocks.write';

/** What the indexer files before it blocks an index. */
export interface WriteBlockMarker {
  index: string;
  /** The setting as found (absent, or an explicit `false`): what lifting the block puts back. */
  prior: false | null;
  set_at: string;
  holder: { host: string; pid: number; generation: string };
}

const markerId = (index: string) => `write-block:${index}`;

/** `index.blocks.write` as set on each index (`true`, `false`; absent: not set). */
async function blockSettings(client: Client, index: string): Promise<Record<string, string | undefined>> {
  const res = (await client.indices.getSettings(
    { index, name: SETTING, flat_settings: true, expand_wildcards: 'all' },
    { ignore: [404] },
  )) as Record<string, { settings?: Record<string, unknown> }>;
  const out: Record<string, string | undefined> = {};
  for (const [name, info] of Object.entries(res ?? {})) {
    if (name === 'error' || name === 'status') continue;
    const value = info?.settings?.[SETTING];
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a setting's value (true/false) as text
    out[name] = value === undefined ? undefined : String(value);
  }
  return out;
}

async function markersOf(client: Client, prefix: string, indexes: string[]): Promise<Map<string, WriteBlockMarker>> {
  const out = new Map<string, WriteBlockMarker>();
  if (!indexes.length) return out;
  const res = await client.mget<WriteBlockMarker>(
    { index: lockIndexName(prefix), ids: indexes.map(markerId) },
    { ignore: [404] },
  );
  for (const doc of res.docs ?? []) {
    if ('found' in doc && doc.found && doc._source) out.set(doc._source.index, doc._source);
  }
  return out;
}

async function lift(client: Client, prefix: string, index: string, prior: false | null): Promise<void> {
  // An index deleted since (an orphan removed) has nothing left to lift.
  await client.indices.putSettings({ index, settings: { [SETTING]: prior } }, { ignore: [404] });
  await client.delete({ index: lockIndexName(prefix), id: markerId(index) }, { ignore: [404] });
}

/**
 * Blocks writes to `index` (to clone it) and returns what puts it back as it was. Already blocked by someone else
 * (no marker): nothing is set and nothing is put back. Already blocked by a killed indexer (a marker): lifted after
 * this clone too. The marker is filed before the block, so a crash leaves no block without one.
 */
export async function blockWritesForClone(
  client: Client,
  prefix: string,
  index: string,
  generation: string,
): Promise<() => Promise<void>> {
  const setting = (await blockSettings(client, index))[index];
  if (setting === 'true') {
    const marker = (await markersOf(client, prefix, [index])).get(index);
    if (!marker) return async () => {};
    return () => lift(client, prefix, index, marker.prior);
  }
  const prior = setting === 'false' ? false : null;
  const marker: WriteBlockMarker = {
    index,
    prior,
    set_at: new Date().toISOString(),
    holder: { host: hostname(), pid: process.pid, generation },
  };
  await client.index({ index: lockIndexName(prefix), id: markerId(index), document: marker });
  await client.indices.putSettings({ index, settings: { [SETTING]: true } });
  return () => lift(client, prefix, index, prior);
}

/** The indexes of `generations` (listGenerations), those removed as orphans included: where markers are looked for. */
export function generationIndexesIn(generations: readonly GenerationInfo[]): string[] {
  return generations.flatMap((g) => Object.values(g.indexes).map((i) => i.index));
}

/**
 * Called by a run or update holding the prefix's lock, before anything else: lifts the write blocks a killed indexer
 * left on `indexes` (the prefix's generation indexes) and removes their markers; returns the indexes lifted.
 */
export async function liftLeftWriteBlocks(
  client: Client,
  prefix: string,
  indexes: string[],
  log: Logger = silentLogger,
): Promise<string[]> {
  const markers = await markersOf(client, prefix, indexes);
  if (!markers.size) return [];
  const settings = await blockSettings(client, [...markers.keys()].join(','));
  const lifted: string[] = [];
  for (const [index, marker] of markers) {
    await lift(client, prefix, index, marker.prior);
    if (settings[index] === 'true') lifted.push(index);
  }
  if (lifted.length) {
    log.warn({ indexes: lifted }, 'lifted the write blocks a killed update left on indexes it was cloning');
  }
  return lifted;
}

export interface WriteBlockReport {
  index: string;
  live: boolean;
  /** Left by a killed indexer (the next run or update lifts it), or set by someone else (the indexer keeps it). */
  leftBy: 'indexer' | 'not the indexer';
  /** The indexer's marker: which run set it, when. */
  marker?: WriteBlockMarker;
  /** The request that lifts it. */
  clear: string;
  note: string;
}

/** For `status`: every generation index of the prefix that is write-blocked, who left the block and how to lift it. */
export async function writeBlocksOf(
  client: Client,
  prefix: string,
  live: ReadonlySet<string>,
): Promise<WriteBlockReport[]> {
  const pattern = INDEX_KINDS.map((kind) => `${aliasName(prefix, kind)}-*`).join(',');
  const settings = await blockSettings(client, pattern);
  const blocked = Object.keys(settings)
    .filter((index) => settings[index] === 'true')
    .sort();
  const markers = await markersOf(client, prefix, blocked);
  return blocked.map((index) => {
    const marker = markers.get(index);
    const clear = `PUT /${index}/_settings {"${SETTING}": ${marker ? JSON.stringify(marker.prior) : 'null'}}`;
    const note = marker
      ? `left by an update killed while cloning it (generation ${marker.holder.generation}, host ` +
        `${marker.holder.host}, pid ${marker.holder.pid}, since ${marker.set_at}): the next run or update on the ` +
        `prefix lifts it; to lift it now, send the request and delete the marker ` +
        `(DELETE /${lockIndexName(prefix)}/_doc/${markerId(index)})`
      : 'not set by the indexer (no marker): the indexer clones through it and leaves it; to lift it, send the request';
    return {
      index,
      live: live.has(index),
      leftBy: marker ? 'indexer' : 'not the indexer',
      ...(marker ? { marker } : {}),
      clear,
      note,
    };
  });
}
