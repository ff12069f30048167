/**
 * An alias swap carried out by Elasticsearch whose answer never reaches the indexer (a connection reset after the
 * work was done, a proxy's 502): a relay forwards `POST /_aliases` and resets the connection when the answer comes.
 * The indexer's client is the CLI's (3 retries). A swap whose every attempt lost its answer used to be taken for
 * "not swapped", and the run deleted the generation it had just made live (the API then had nothing to serve). Now
 * the swap is sent once and the aliases read back decide; when they cannot be read, nothing is deleted.
 *
 * A swap whose answer failed may also still be on its way or queued on the master: a real master cannot be held
 * with a queued change on demand, so the relay plays it, holding the request and letting it reach Elasticsearch only
 * when a request comes that a master carries out after a queued change (a deletion of indexes, or a wait for its
 * queue). Read back at once, such a swap looked "not moved"; the run deleted its indexes, and the deletion released
 * the swap first: no alias left. Now the run waits for the cluster's pending alias changes before reading back.
 */
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IndexingError } from '../../../indexer/execution/errors.js';
import { rollback } from '../../../indexer/generations/generations.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { generationIndexName } from '../../../core/elasticsearch/indexNames.js';
import { createElasticsearchClient } from '../../../core/elasticsearch/client.js';
import { testElasticsearchUrl } from '../../support/elasticsearch.js';
import { createCompleteGeneration, createLiveGeneration, generationIndexesOf } from '../../support/generations.js';
import { generationIndexNames } from '../../support/generations.js';
import { aliasTargets, indexerTestSpace } from '../../support/indexerTests.js';
import { Relay } from '../../support/relay.js';

const FIXTURE = 'test/fixtures/indexer-generations/manifest.json';
/** Older than any generation a run makes now: what a previous run left live. */
const EARLIER = '20200101000000000';
const EARLIEST = '20190101000000000';
const SWAP = /^POST \/_aliases/;
/**
 * What a master does after an alias change already queued on it: another change of the cluster's state (deleting
 * indexes: `DELETE /a,b`, not a document's `DELETE /i/_doc/id`; changing aliases), or answering a wait for its queue.
 */
const AFTER_QUEUED =
  /^(DELETE \/[^/ ]+ |POST \/_aliases|GET \/_cluster\/health\?[^ ]*wait_for_events|GET \/_tasks\?[^ ]*wait_for_completion)/;

const space = indexerTestSpace('indexer-swap-answer-lost');
let relay: Relay;
/** The CLI's client, through the relay. */
let viaRelay: Client;
let client: Client;

beforeAll(async () => {
  client = space.client;
  relay = new Relay(new URL(testElasticsearchUrl()), 'forward');
  await relay.open();
  viaRelay = createElasticsearchClient({ url: relay.url, requestTimeoutMs: 60_000, maxRetries: 3 });
});

afterEach(() => {
  relay.lose = undefined;
  relay.refuse = undefined;
  relay.holdQueued = undefined;
  relay.released = [];
});

afterAll(async () => {
  await viaRelay.close();
  await relay.close();
});

/** Every alias of `p` on `generation` alone. */
const allOn = (p: string, generation: string) =>
  Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [generationIndexName(p, kind, generation)]]));

function run(p: string, warnings: string[] = []) {
  return runIndexing({
    client: viaRelay,
    manifestPath: FIXTURE,
    indexPrefix: p,
    progress: 'none',
    rejectsPath: join(space.tmp, `${p}rejects.jsonl`),
    handleSignals: false,
    log: { info() {}, warn: (_obj, msg) => void warnings.push(String(msg)), error() {} },
  });
}

describe('the answer of an alias swap is lost', () => {
  it('a run: the swap is read back as applied, the run succeeds and its generation stays live', async () => {
    const p = space.ownPrefix('lost-run');
    await createLiveGeneration(client, p, EARLIER);
    // Every attempt the CLI's client would make (1 + 3 retries) loses its answer.
    relay.lose = { requests: SWAP, count: 4 };
    const warnings: string[] = [];
    const summary = await run(p, warnings);
    expect(relay.lose.count).toBe(3);
    expect(summary).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: EARLIER });
    expect(await aliasTargets(client, p)).toEqual(allOn(p, summary.generation));
    expect(await generationIndexesOf(client, p)).toEqual(
      [...generationIndexNames(p, summary.generation), ...generationIndexNames(p, EARLIER)].sort(),
    );
    expect(warnings).toContainEqual(expect.stringMatching(/aliases read back point at the new generation/));
  }, 60_000);

  it('a rollback: read back as applied, it reports the rollback done', async () => {
    const p = space.ownPrefix('lost-rollback');
    await createCompleteGeneration(client, p, EARLIEST);
    await createLiveGeneration(client, p, EARLIER);
    relay.lose = { requests: SWAP, count: 4 };
    expect(await rollback(viaRelay, p)).toEqual({ from: EARLIER, to: EARLIEST });
    expect(relay.lose.count).toBe(3);
    expect(await aliasTargets(client, p)).toEqual(allOn(p, EARLIEST));
  }, 60_000);

  it('the aliases cannot be read back: the run fails saying the outcome is unknown and deletes nothing', async () => {
    const p = space.ownPrefix('lost-unknown');
    await createLiveGeneration(client, p, EARLIER);
    // From the lost answer on, every alias read is refused (503, retried and refused again): the cluster cannot tell.
    const readBack = { requests: /^GET \/_alias\//, count: 1000, status: 503 };
    relay.lose = { requests: SWAP, count: 1, then: () => (relay.refuse = readBack) };
    const error = await run(p).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    const message = (error as IndexingError).message;
    expect(message).toMatch(/whether the aliases moved is unknown, so no index was deleted/);
    expect(message).toContain(`npm run index -- status --prefix ${p}`);
    const generation = (error as IndexingError).summary?.generation as string;
    // The swap was applied (the relay forwarded it): the aliases are on the new generation and it is all there.
    expect(await aliasTargets(client, p)).toEqual(allOn(p, generation));
    expect(await generationIndexesOf(client, p)).toEqual(
      [...generationIndexNames(p, generation), ...generationIndexNames(p, EARLIER)].sort(),
    );
  }, 60_000);

  it.each([502, 'reset'] as const)(
    'a swap still queued on the master when its answer failed (%s): the run waits for the master, then reads it back applied and keeps its generation',
    async (answer) => {
      const p = space.ownPrefix('queued');
      await createLiveGeneration(client, p, EARLIER);
      // The swap reaches Elasticsearch only once the run asks for something the master does after it: the run used to
      // read the aliases back at once (not moved yet), then delete its indexes, a deletion the master carried out
      // after the swap it had queued, leaving no alias at all.
      relay.holdQueued = { requests: SWAP, answer, until: AFTER_QUEUED };
      const warnings: string[] = [];
      const summary = await run(p, warnings);
      expect(relay.released).toEqual([expect.stringMatching(/^GET \/(_tasks|_cluster\/health)/)]);
      expect(summary).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: EARLIER });
      expect(await aliasTargets(client, p)).toEqual(allOn(p, summary.generation));
      expect(await generationIndexesOf(client, p)).toEqual(
        [...generationIndexNames(p, summary.generation), ...generationIndexNames(p, EARLIER)].sort(),
      );
      expect(warnings).toContainEqual(expect.stringMatching(/aliases read back point at the new generation/));
    },
    60_000,
  );

  it('the master cannot be waited for: nothing is deleted, the run names the live generation and keeps its own', async () => {
    const p = space.ownPrefix('unwaited');
    await createLiveGeneration(client, p, EARLIER);
    // The swap is held and never released (a change the master may still carry out, or may have dropped), and every
    // wait for the master times out: whether the swap will still happen cannot be known.
    const waits = { requests: /^GET \/(_tasks|_cluster\/health)/, count: 1000, status: 408 };
    relay.holdQueued = { requests: SWAP, answer: 502, until: /$^/, then: () => (relay.refuse = waits) };
    const error = await run(p).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexingError);
    const generation = (error as IndexingError).summary?.generation as string;
    const message = (error as IndexingError).message;
    expect(message).toMatch(/whether the aliases moved is unknown, so no index was deleted/);
    expect(message).toContain(`the aliases read back point at generation ${EARLIER}`);
    expect(message).toContain(`generation ${generation} is kept`);
    expect((error as IndexingError).summary?.problems).toEqual([message]);
    expect(await aliasTargets(client, p)).toEqual(allOn(p, EARLIER));
    expect(await generationIndexesOf(client, p)).toEqual(
      [...generationIndexNames(p, generation), ...generationIndexNames(p, EARLIER)].sort(),
    );
  }, 60_000);
});
