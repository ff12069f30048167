/**
 * `update` against a real Elasticsearch, on snapshots made from the sample's real rows (test/support/snapshots.ts).
 * The guarantee: for A indexed in full and then updated to B, every address, street, place, area and building
 * document equals, id for id and field for field, what a full run on B writes, and the API answers the same. Also:
 * a reader polling during the update sees every answer whole and one swap; --dry-run writes nothing; a change set
 * above --max-change-ratio is refused naming its numbers; rollback goes back to the generation before the update.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_KINDS, type IndexKind } from '../../../core/elasticsearch/documents.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { listGenerations, liveGeneration, rollback } from '../../../indexer/generations/generations.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { runUpdate, type UpdateSummary } from '../../../indexer/commands/update.js';
import { UpdateRefusedError } from '../../../indexer/update/updateErrors.js';
import { startTestApi } from '../../support/api.js';
import { deleteIndexesWithPrefix, uniqueIndexPrefix } from '../../support/elasticsearch.js';
import { documentsOf, generationIndexesOf } from '../../support/generations.js';
import { aliasTargets, indexerTestSpace } from '../../support/indexerTests.js';
import { generationCounts, pollWhile, readerFailures, swapOrder } from '../../support/pollingReader.js';
import { type Snapshots, writeSnapshots } from '../../support/snapshots.js';

const space = indexerTestSpace('indexer-update');
// Shared by this file's tests in order (the update, then what is checked on it), so not ownPrefix (removed after
// each test): removed after the file.
const updated = uniqueIndexPrefix('upd-a');
const rebuilt = uniqueIndexPrefix('upd-b');
let snapshots: Snapshots;
let fullA: RunSummary;
let fullB: RunSummary;

function full(manifestPath: string, indexPrefix: string): Promise<RunSummary> {
  return runIndexing({ client: space.client, manifestPath, indexPrefix, progress: 'none', handleSignals: false });
}

function update(manifestPath: string, options: { dryRun?: boolean; maxChangeRatio?: number } = {}) {
  return runUpdate({
    client: space.client,
    manifestPath,
    indexPrefix: updated,
    progress: 'none',
    handleSignals: false,
    ...options,
  });
}

const documents = (p: string, kind: IndexKind) => documentsOf(space.client, p, kind);

afterAll(async () => {
  for (const p of [updated, rebuilt]) await deleteIndexesWithPrefix(space.client, p);
});

beforeAll(async () => {
  snapshots = writeSnapshots(space.tmp);
  fullA = await full(snapshots.a, updated);
  fullB = await full(snapshots.b, rebuilt);
}, 600_000);

describe('indexer update', () => {
  let result: UpdateSummary;

  it('applies B under a polling reader: every answer whole and from one generation, one swap', async () => {
    const { result: summary, seen } = await pollWhile(space.client, updated, () => update(snapshots.b));
    result = summary;
    expect(summary).toMatchObject({ ok: true, mode: 'update', aliasesSwapped: true, refused: [], problems: [] });
    expect(summary.previousGeneration).toBe(fullA.generation);
    const whole = {
      [fullA.generation]: await generationCounts(space.client, updated, fullA.generation),
      [summary.generation]: await generationCounts(space.client, updated, summary.generation),
    };
    expect(readerFailures(seen, whole)).toEqual([]);
    expect(swapOrder(seen)).toEqual([fullA.generation, summary.generation]);
    // What B changed, as the summary tells it: a move keeps an address's id, a new postcode, box or name gives a new one.
    const addresses = summary.changes?.addresses;
    expect(addresses?.changed).toBeGreaterThanOrEqual(1);
    expect(addresses?.added).toBeGreaterThanOrEqual(3);
    expect(addresses?.removed).toBeGreaterThanOrEqual(7);
    expect(addresses!.added + addresses!.changed + addresses!.removed).toBeLessThan(addresses!.unchanged / 10);
    expect(summary.changes?.streets.added).toBeGreaterThanOrEqual(1);
    expect(summary.changes?.streets.removed).toBeGreaterThanOrEqual(1);
    expect(summary.changes?.places.changed).toBeGreaterThanOrEqual(1);
  }, 600_000);

  it('equals a full run on B, document for document', async () => {
    expect(result?.ok).toBe(true);
    for (const kind of INDEX_KINDS) {
      const mine = await documents(updated, kind);
      const theirs = await documents(rebuilt, kind);
      expect({ kind, count: mine.size }).toEqual({ kind, count: theirs.size });
      const differing = [...theirs].filter(([id, doc]) => JSON.stringify(mine.get(id)) !== JSON.stringify(doc));
      expect({ kind, differing: differing.slice(0, 3).map(([id]) => [id, mine.get(id), theirs.get(id)]) }).toEqual({
        kind,
        differing: [],
      });
    }
    expect(result.levels.addresses.count).toBe(fullB.levels.addresses.count);
    expect(result.levels.addresses.merged).toBe(fullB.levels.addresses.merged);
    expect(result.streets.count).toBe(fullB.streets.count);
    expect(result.places.count).toBe(fullB.places.count);
  }, 120_000);

  it('answers the API the same as a full run on B', async () => {
    const mine = await startTestApi({ indexPrefix: updated });
    const theirs = await startTestApi({ indexPrefix: rebuilt });
    try {
      const { to, toFr } = snapshots.renamed;
      const requests: [string, string, unknown?][] = [
        ['GET', `/search?q=${encodeURIComponent(`${to} 10, Elsene`)}&size=5`],
        ['GET', `/search?q=${encodeURIComponent(toFr)}&lang=fr&size=5`],
        ['GET', '/search?q=idaliestraat&size=5'],
        ['GET', `/autocomplete?q=${encodeURIComponent(to.slice(0, 6))}&size=5`],
        ['GET', '/search?q=mekelweg%208%20delft&size=3'],
        ['GET', '/reverse?lat=51.99537&lon=4.37588'],
        ['POST', '/geocode/forward', { streetname: to, number: '10' }],
        ['POST', '/lookup/street', { streetname: 'mekelweg', number: '8' }],
      ];
      const statuses: number[] = [];
      for (const [method, path, body] of requests) {
        const [a, b] = await Promise.all([
          mine.call(method, path, body ? { body } : {}),
          theirs.call(method, path, body ? { body } : {}),
        ]);
        expect({ path, status: a.status, body: a.body }).toEqual({ path, status: b.status, body: b.body });
        statuses.push(a.status);
      }
      // Answers with results, not a row of equal errors: only the street renamed away may find nothing.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(requests.length - 1);
    } finally {
      await mine.close();
      await theirs.close();
    }
  }, 120_000);

  it('--dry-run prints the change set and writes nothing: no index, no alias, no document changed', async () => {
    const indexes = async () => {
      const names = await generationIndexesOf(space.client, updated);
      return Promise.all(names.map(async (index) => [index, (await space.client.count({ index })).count]));
    };
    const before = { indexes: await indexes(), aliases: await aliasTargets(space.client, updated) };
    const lockIndex = await space.client.indices.exists({ index: `${updated}indexer-lock` });
    const dry = await update(snapshots.a, { dryRun: true });
    expect(dry).toMatchObject({ ok: true, dryRun: true, aliasesSwapped: false });
    // Back to A is the reverse change: what B added is removed and what it removed is added.
    expect(dry.changes?.addresses.added).toBe(result.changes?.addresses.removed);
    expect(dry.changes?.addresses.removed).toBe(result.changes?.addresses.added);
    expect({ indexes: await indexes(), aliases: await aliasTargets(space.client, updated) }).toEqual(before);
    expect(await space.client.indices.exists({ index: `${updated}indexer-lock` })).toBe(lockIndex);
  }, 300_000);

  it('refuses a change set above --max-change-ratio, naming the numbers, and leaves everything live', async () => {
    const before = await aliasTargets(space.client, updated);
    const names = await generationIndexesOf(space.client, updated);
    const error = await update(snapshots.a, { maxChangeRatio: 0.0001 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpdateRefusedError);
    const summary = (error as UpdateRefusedError).summary as UpdateSummary;
    expect(summary.aliasesSwapped).toBe(false);
    // Either the whole change set or, earlier, the documents added alone pass the limit: the message names them.
    expect(summary.refused.join('\n')).toMatch(
      /^addresses: .*\d+ .*of \d+ live documents.*--max-change-ratio 0\.0001/m,
    );
    expect(await aliasTargets(space.client, updated)).toEqual(before);
    expect(await generationIndexesOf(space.client, updated)).toEqual(names);
  }, 300_000);

  it('rolls back to the generation before the update', async () => {
    expect(await liveGeneration(space.client, updated)).toBe(result.generation);
    const generations = await listGenerations(space.client, updated);
    expect(generations.filter((g) => g.complete).map((g) => g.generation)).toEqual([
      result.generation,
      fullA.generation,
    ]);
    await rollback(space.client, updated);
    expect(await liveGeneration(space.client, updated)).toBe(fullA.generation);
  }, 120_000);
});
