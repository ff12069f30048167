/** What both `index` and `update` check before a run starts: the prefix, the manifest and its sources' files. */
import { INDEX_PREFIX_PATTERN } from '../../core/config/rules.js';
import { IndexingError } from '../execution/errors.js';
import { newGeneration } from '../generations/generationIndexes.js';
import { loadManifest } from '../manifest/manifest.js';
import type { GenerationStart } from '../pipeline/runGeneration.js';
import { assertSourcesFit } from './preflight.js';

export async function startRun(options: { manifestPath: string; indexPrefix?: string }): Promise<GenerationStart> {
  const prefix = options.indexPrefix ?? '';
  if (!INDEX_PREFIX_PATTERN.test(prefix)) throw new IndexingError(`invalid index prefix "${prefix}"`);
  const loaded = await loadManifest(options.manifestPath);
  await assertSourcesFit(loaded.path, loaded.manifest);
  return { prefix, generation: newGeneration(), manifestPath: loaded.path, manifest: loaded.manifest };
}
