import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { aliasesExist } from '../../indexer/generations/generations.js';
import { runIndexing } from '../../indexer/commands/index.js';
import { BULK_PREFIX, REPO_ROOT, RESULTS_DIR, SAMPLE_PREFIX } from './defaults.js';

export interface BenchDataset {
  name: string;
  manifestPath: string;
  /** Each dataset lives under its own alias prefix, so a reused cluster keeps all three loaded. */
  prefix: string;
}

/**
 * The datasets a benchmark compares, smallest first: the Delft sample, one province (Groningen, a manifest
 * derived from bulk.json with a single address file) and all bulk addresses. `small` keeps only Delft.
 */
export function scalingManifests(small: boolean): BenchDataset[] {
  const sample = {
    name: 'delft-sample',
    manifestPath: join(REPO_ROOT, 'datasets/sample.json'),
    prefix: SAMPLE_PREFIX,
  };
  if (small) return [sample];
  const bulkPath = join(REPO_ROOT, 'datasets/bulk.json');
  const bulk = JSON.parse(readFileSync(bulkPath, 'utf8'));
  // Make every file path absolute so the derived manifest can live outside datasets/.
  for (const sources of Object.values<any[]>(bulk.levels)) {
    for (const source of sources) {
      if (source.file) source.file = resolve(dirname(bulkPath), source.file);
      if (source.parent?.lookup?.file)
        source.parent.lookup.file = resolve(dirname(bulkPath), source.parent.lookup.file);
    }
  }
  bulk.levels.addresses = bulk.levels.addresses.filter((s: { file: string }) => s.file.includes('groningen'));
  bulk.name = 'bulk-groningen';
  const dir = RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const provincePath = join(dir, 'manifest-groningen.json');
  writeFileSync(provincePath, `${JSON.stringify(bulk, null, 2)}\n`);
  return [
    sample,
    { name: 'groningen', manifestPath: provincePath, prefix: 'bench-groningen-' },
    { name: 'bulk', manifestPath: bulkPath, prefix: BULK_PREFIX },
  ];
}

/** Indexes with the real indexer unless the dataset's aliases are already there (reruns reuse the index). */
export async function ensureIndexed(client: Client, dataset: BenchDataset, log: (m: string) => void): Promise<void> {
  if (await aliasesExist(client, dataset.prefix)) {
    log(`${dataset.name}: already indexed under "${dataset.prefix}"`);
    return;
  }
  log(`${dataset.name}: indexing ${dataset.manifestPath}`);
  const started = Date.now();
  await runIndexing({ client, manifestPath: dataset.manifestPath, indexPrefix: dataset.prefix, progress: 'json' });
  log(`${dataset.name}: indexed in ${Math.round((Date.now() - started) / 1000)} s`);
}
