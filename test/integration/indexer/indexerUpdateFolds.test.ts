/**
 * `update` where the derived cities fold otherwise than in the live generation (indexer/derived/liveFolds.ts), against
 * a real Elasticsearch, on two snapshots of the sample's real rows (test/support/snapshots.ts, writeFoldSnapshots):
 * in A a small group of "Brussel" addresses in Elsene is folded into Brussels' "Brussel"; in B Brussels' addresses say
 * "Bruxelles" and the group stands alone. The addresses of a group the live generation folded are replayed as they
 * are, not read again; where the snapshot folds them otherwise they are moved; the result is, document for document,
 * a full run on the snapshot.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { liveBasis } from '../../../indexer/update/liveGeneration.js';
import { runUpdate } from '../../../indexer/commands/update.js';
import { deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../support/elasticsearch.js';
import { allDocumentsOf } from '../../support/generations.js';
import { indexerTestSpace } from '../../support/indexerTests.js';
import { writeFoldSnapshots } from '../../support/snapshots.js';

const space = indexerTestSpace('indexer-folds');
const updated = uniqueIndexPrefix('fld-a');
const rebuilt = uniqueIndexPrefix('fld-b');
let snapshots: ReturnType<typeof writeFoldSnapshots>;
let rowCacheDir: string;
let documentsOfA: Record<string, Map<string, string>>;

const options = (manifestPath: string, indexPrefix: string) => ({
  client: space.client,
  manifestPath,
  indexPrefix,
  progress: 'none' as const,
  handleSignals: false,
  rowCacheDir,
});

function documents(p: string): Promise<Record<string, Map<string, string>>> {
  return allDocumentsOf(space.client, p);
}

afterAll(async () => {
  for (const p of [updated, rebuilt]) await deleteIndexesWithPrefix(space.client, p);
});

beforeAll(async () => {
  snapshots = writeFoldSnapshots(space.tmp);
  rowCacheDir = join(space.tmp, 'rows');
  await runIndexing(options(snapshots.a, updated));
  documentsOfA = await documents(updated);
  await runIndexing(options(snapshots.b, rebuilt));
}, 600_000);

function expectSameDocuments(mine: Record<string, Map<string, string>>, theirs: Record<string, Map<string, string>>) {
  for (const kind of INDEX_KINDS) {
    const a = mine[kind] as Map<string, string>;
    const b = theirs[kind] as Map<string, string>;
    expect({ kind, size: a.size }).toEqual({ kind, size: b.size });
    const differing = [...b].filter(([id, doc]) => a.get(id) !== doc).map(([id]) => id);
    expect({ kind, differing }).toEqual({ kind, differing: [] });
  }
}

describe('indexer update where derived cities fold', () => {
  it('replays the addresses of a folded group as they are when the snapshot folds it alike', async () => {
    const before = (await liveBasis(space.client, updated)).basis;
    expect(before.folded_cities).toHaveLength(1);
    const summary = await runUpdate(options(snapshots.a, updated));
    expect(summary).toMatchObject({ ok: true, rows: { read: 0 } });
    expect(summary.changes?.addresses).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expectSameDocuments(await documents(updated), documentsOfA);
    expect((await liveBasis(space.client, updated)).basis.folded_into).toEqual(before.folded_into);
  }, 300_000);

  it('moves the addresses of a group the live generation folded, where the snapshot folds it no more', async () => {
    const live = (await liveBasis(space.client, updated)).basis;
    expect(Object.keys(live.folded_into ?? {})).toHaveLength(1);
    expect((await liveBasis(space.client, rebuilt)).basis.folded_cities).toEqual([]);
    // B renames every address of the City of Brussels (3,386 of the sample's 15,444 live addresses, the centre of
    // Brussels among them): above the default --max-change-ratio of 10 %, which is not what this test is about.
    const summary = await runUpdate({ ...options(snapshots.b, updated), maxChangeRatio: 0.5 });
    expect(summary).toMatchObject({ ok: true, aliasesSwapped: true });
    // Only the rows B changed are read; the 40 addresses of A's folded group are replayed (read again before).
    expect(summary.rows).toMatchObject({ read: snapshots.changedRows });
    expectSameDocuments(await documents(updated), await documents(rebuilt));
    expect((await liveBasis(space.client, updated)).basis.folded_cities).toEqual([]);
  }, 300_000);
});
