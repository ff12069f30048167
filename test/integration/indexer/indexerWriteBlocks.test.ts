/**
 * `update` write-blocks each live index while Elasticsearch clones it. What must hold: a block someone else had set
 * stays (the indexer used to lift it after its clone); a block an update killed mid-clone left behind is shown by
 * `status` as the indexer's, with the request that lifts it, and the next update lifts it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { aliasName, generationIndexName } from '../../../core/elasticsearch/indexNames.js';
import type { RunSummary } from '../../../indexer/execution/summary.js';
import { lockIndexName } from '../../../indexer/generations/runLock.js';
import type { WriteBlockReport } from '../../../indexer/generations/writeBlocks.js';
import { runIndexing } from '../../../indexer/commands/index.js';
import { runUpdate } from '../../../indexer/commands/update.js';
import { testElasticsearchUrl } from '../../support/elasticsearch.js';
import { indexerTestSpace } from '../../support/indexerTests.js';
import { Relay } from '../../support/relay.js';

const TINY = 'test/fixtures/indexer-generations/manifest.json';

const space = indexerTestSpace('indexer-write-blocks');
let client: Client;
beforeAll(() => {
  client = space.client;
});

const options = (p: string) => ({
  client,
  manifestPath: TINY,
  indexPrefix: p,
  progress: 'none' as const,
  rejectsPath: join(space.tmp, `${p}rejects.jsonl`),
  rowCacheDir: join(space.tmp, `${p}rows`),
  handleSignals: false,
});

/** The prefix's generation indexes whose writes are blocked, sorted. */
async function blockedIndexes(p: string): Promise<string[]> {
  const res = (await client.indices.getSettings({
    index: INDEX_KINDS.map((kind) => `${aliasName(p, kind)}-*`).join(','),
    name: 'index.blocks.write',
    flat_settings: true,
  })) as Record<string, { settings: Record<string, string> }>;
  return Object.keys(res)
    .filter((index) => res[index]?.settings['index.blocks.write'] === 'true')
    .sort();
}

/** The CLI as an operator runs it, against `url`. */
function runCli(args: string[], url = testElasticsearchUrl()): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', ...args], {
    env: { ...process.env, ELASTICSEARCH_URL: url, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return { child, done: new Promise((resolve) => child.on('exit', () => resolve(stdout))) };
}

async function status(p: string): Promise<{ writeBlocks: WriteBlockReport[] }> {
  return JSON.parse(await runCli(['status', '--prefix', p]).done) as { writeBlocks: WriteBlockReport[] };
}

describe('write blocks of the live indexes', () => {
  it('one set by someone else stays through an update, and status says it is not the indexer’s', async () => {
    const p = space.ownPrefix('operator');
    const first: RunSummary = await runIndexing(options(p));
    const blocked = generationIndexName(p, 'areas', first.generation);
    await client.indices.putSettings({ index: blocked, settings: { 'index.blocks.write': true } });

    const updated = await runUpdate(options(p));
    expect(updated).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: first.generation });
    expect(await blockedIndexes(p)).toEqual([blocked]);
    expect((await status(p)).writeBlocks).toEqual([
      {
        index: blocked,
        live: false,
        leftBy: 'not the indexer',
        clear: `PUT /${blocked}/_settings {"index.blocks.write": null}`,
        note: expect.stringMatching(/^not set by the indexer/),
      },
    ]);
  });

  it('one an update killed while cloning left: status shows it as the indexer’s, the next update lifts it', async () => {
    const p = space.ownPrefix('killed');
    const first: RunSummary = await runIndexing(options(p));
    const relay = new Relay(new URL(testElasticsearchUrl()));
    await relay.open();
    let pid: number | undefined;
    try {
      // The update's `_clone` requests never reach Elasticsearch; each is sent once its source is blocked (the
      // block answered), so once all are in, every live index is blocked and no change of a block is on its way.
      const cloning = new Promise<void>((resolve) => {
        relay.hang = { requests: /^PUT \/[^ /]+\/_clone\//, then: (hung) => hung === INDEX_KINDS.length && resolve() };
      });
      const rows = join(space.tmp, `${p}rows`);
      const killed = runCli(
        ['update', '--manifest', TINY, '--prefix', p, '--progress', 'none', '--row-cache', rows],
        relay.url,
      );
      pid = killed.child.pid;
      await cloning;
      killed.child.kill('SIGKILL');
      await killed.done;
    } finally {
      await relay.close();
    }

    const blocked = await blockedIndexes(p);
    expect(blocked).toEqual(INDEX_KINDS.map((kind) => generationIndexName(p, kind, first.generation)).sort());
    const reports = (await status(p)).writeBlocks;
    expect(reports.map((r) => r.index)).toEqual(blocked);
    for (const report of reports) {
      expect(report).toMatchObject({
        live: true,
        leftBy: 'indexer',
        marker: { index: report.index, prior: null, holder: { pid } },
        clear: `PUT /${report.index}/_settings {"index.blocks.write": null}`,
        note: expect.stringMatching(/the next run or update on the prefix lifts it/),
      });
    }

    // The killed update's lock would hold the prefix until its lease ran out (not what is tested here).
    await client.delete({ index: lockIndexName(p), id: 'lock' });
    const next = await runUpdate(options(p));
    expect(next).toMatchObject({ ok: true, aliasesSwapped: true, previousGeneration: first.generation });
    expect(await blockedIndexes(p)).toEqual([]);
    expect((await status(p)).writeBlocks).toEqual([]);
    const markers = await client.mget({ index: lockIndexName(p), ids: blocked.map((i) => `write-block:${i}`) });
    expect(markers.docs.filter((d) => 'found' in d && d.found)).toEqual([]);
  });
});
