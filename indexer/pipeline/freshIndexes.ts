/**
 * The full run's target: a new generation of all five indexes, made empty and written in full, then finished with a
 * force-merge. It starts from no live generation's data (the live one is only kept as the rollback target).
 */
import type { Client } from '@elastic/elasticsearch';
import { INDEX_KINDS } from '../../core/elasticsearch/documents.js';
import type { RunSummary } from '../execution/summary.js';
import {
  assertAliasNamesFree,
  assertLayoutFits,
  createGenerationIndex,
  finishGenerationIndex,
  type IndexLayout,
} from '../generations/generationIndexes.js';
import { liveGeneration } from '../generations/generations.js';
import { addressRowsOf } from '../rows/rowCacheRun.js';
import type { GenerationTarget } from './runGeneration.js';

export function freshIndexes(layout: IndexLayout | undefined): GenerationTarget<RunSummary> {
  return {
    operation: 'index',
    dryRun: false,
    async begin(client: Client, prefix: string) {
      await assertAliasNamesFree(client, prefix);
      await assertLayoutFits(client, layout);
      return (await liveGeneration(client, prefix)) ?? null;
    },
    started: ({ generation, prefix, manifestPath }) => [
      { generation, prefix, manifest: manifestPath },
      'indexing started',
    ],
    async open(run) {
      for (const kind of INDEX_KINDS) {
        await createGenerationIndex(run.client, run.indexes[kind], kind, layout);
        run.created.push(run.indexes[kind]);
      }
      return { rows: addressRowsOf(run.rowCache) };
    },
    loaded: () => Promise.resolve(undefined),
    finish: (run, kind) => finishGenerationIndex(run.client, run.indexes[kind], kind, layout),
    updateSerial: () => 0,
    summary: (base) => base,
    failed: (error) => Promise.resolve(error),
  };
}
