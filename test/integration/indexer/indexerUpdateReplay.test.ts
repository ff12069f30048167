/**
 * `update` replaying the live generation's address rows (indexer/rows/) against a real Elasticsearch, on snapshots
 * of the sample's real rows (test/support/snapshots.ts): when only address rows changed, the rows a snapshot kept
 * are replayed from the row cache and only the others are read and derived, and the result is still, document for
 * document, what a full run writes. The cache an update writes serves the next update; a changed street-names file,
 * or a live row cache whose contents were edited, makes the update read everything, saying why.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { runUpdate, type UpdateSummary } from '../../../indexer/commands/update.js';
import { rowCachePath } from '../../../indexer/rows/rowCacheFile.js';
import { deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../support/elasticsearch.js';
import { allDocumentsOf } from '../../support/generations.js';
import { indexerTestSpace } from '../../support/indexerTests.js';
import { type Snapshots, writeSnapshots } from '../../support/snapshots.js';

const space = indexerTestSpace('indexer-replay');
const updated = uniqueIndexPrefix('rpl-a');
const rebuilt = uniqueIndexPrefix('rpl-b');
let snapshots: Snapshots;
let rowCacheDir: string;
let fullA: RunSummary;
let fullB: RunSummary;
let documentsOfA: Record<string, Map<string, string>>;

function full(manifestPath: string, indexPrefix: string): Promise<RunSummary> {
  return runIndexing({
    client: space.client,
    manifestPath,
    indexPrefix,
    progress: 'none',
    handleSignals: false,
    rowCacheDir,
  });
}

function update(manifestPath: string, dryRun = false): Promise<UpdateSummary> {
  return runUpdate({
    client: space.client,
    manifestPath,
    indexPrefix: updated,
    progress: 'none',
    handleSignals: false,
    rowCacheDir,
    dryRun,
  });
}

/** Every document of every kind behind the prefix's aliases, by id, as JSON. */
function documents(p: string): Promise<Record<string, Map<string, string>>> {
  return allDocumentsOf(space.client, p);
}

function differences(mine: Record<string, Map<string, string>>, theirs: Record<string, Map<string, string>>) {
  return INDEX_KINDS.map((kind) => {
    const a = mine[kind] as Map<string, string>;
    const b = theirs[kind] as Map<string, string>;
    const differing = [...b].filter(([id, doc]) => a.get(id) !== doc).map(([id]) => id);
    if (process.env.DEBUG_REPLAY && differing[0]) console.log(kind, a.get(differing[0]), '\n', b.get(differing[0]));
    return { kind, count: a.size - b.size, differing: differing.slice(0, 3) };
  });
}

const none = INDEX_KINDS.map((kind) => ({ kind, count: 0, differing: [] }));

afterAll(async () => {
  for (const p of [updated, rebuilt]) await deleteIndexesWithPrefix(space.client, p);
});

beforeAll(async () => {
  snapshots = writeSnapshots(space.tmp);
  rowCacheDir = join(space.tmp, 'rows');
  fullA = await full(snapshots.a, updated);
  documentsOfA = await documents(updated);
  fullB = await full(snapshots.rowsOnly, rebuilt);
}, 600_000);

describe('indexer update replaying unchanged rows', () => {
  it('replays the rows the snapshot kept, derives the others, and equals a full run document for document', async () => {
    const summary = await update(snapshots.rowsOnly);
    expect(summary).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: fullA.generation });
    expect(summary.rows).toEqual({
      replayed: expect.any(Number),
      read: expect.any(Number),
      derivations: { reused: expect.any(Number), made: expect.any(Number) },
    });
    const rows = summary.rows as { replayed: number; read: number; derivations: { reused: number; made: number } };
    // The boundaries did not change: every repaired geometry is taken over from the live generation, none made again.
    expect(rows.derivations).toEqual({ reused: expect.any(Number), made: 0 });
    expect(rows.derivations.reused).toBeGreaterThan(1000);
    expect(rows.replayed).toBeGreaterThan(0);
    // Only the rows B changed, added, or that share a document with one are read: a few percent of the sample.
    expect(rows.read).toBeGreaterThan(0);
    expect(rows.read).toBeLessThan(rows.replayed / 10);
    // The streets and places no changed row reached are kept as they are, not rebuilt into a digest and compared.
    expect(summary.untouched.streets).toBeGreaterThan(summary.changes!.streets.unchanged / 2);
    // Each of those streets' places too, and postcodes no change reached (the areas' places are always rebuilt).
    expect(summary.untouched.places).toBeGreaterThan(summary.untouched.streets!);
    expect(differences(await documents(updated), await documents(rebuilt))).toEqual(none);
    expect(summary.levels.addresses.count).toBe(fullB.levels.addresses.count);
    expect(summary.levels.addresses.merged).toBe(fullB.levels.addresses.merged);
    expect(summary.levels.addresses.read).toBe(fullB.levels.addresses.read);
    expect(summary.streets.count).toBe(fullB.streets.count);
    expect(summary.places.count).toBe(fullB.places.count);
  }, 300_000);

  let backToA: UpdateSummary;
  it("replays again from the cache the update wrote: back to A equals A's full run", async () => {
    const summary = await update(snapshots.a);
    backToA = summary;
    expect(summary.ok).toBe(true);
    expect(summary.rows).toMatchObject({ replayed: expect.any(Number), read: expect.any(Number) });
    expect((summary.rows as { replayed: number }).replayed).toBeGreaterThan(0);
    expect(differences(await documents(updated), documentsOfA)).toEqual(none);
  }, 300_000);

  it("reads every row when the live row cache's contents were edited, and says why", async () => {
    const path = rowCachePath(rowCacheDir, updated, backToA.generation);
    const whole = readFileSync(path);
    // A street name in the interned strings, edited to one of the same length: the file's framing is intact.
    const at = whole.indexOf('Mekelweg');
    expect(at).toBeGreaterThan(0);
    const edited = Buffer.from(whole);
    edited.write('Mekelwef', at);
    writeFileSync(path, edited);
    try {
      const summary = await update(snapshots.a, true);
      expect(summary.ok).toBe(true);
      expect(summary.rows).toEqual({ readInFull: expect.stringMatching(/checksum mismatch/) });
    } finally {
      writeFileSync(path, whole);
    }
  }, 300_000);

  it('reads every row when a street-names file changed, and says why', async () => {
    const summary = await update(snapshots.b);
    expect(summary.ok).toBe(true);
    expect(summary.rows).toEqual({ readInFull: expect.stringMatching(/street-name/) });
  }, 300_000);
});
