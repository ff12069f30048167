/** The command-line options both evaluations (`npm run eval`, `npm run eval:entry`) share, read one way. */
import { basename, resolve } from 'node:path';

export const SHARED_EVAL_OPTIONS = {
  manifest: { type: 'string', default: 'datasets/sample.json' },
  sample: { type: 'string' },
  seed: { type: 'string', default: '1' },
  concurrency: { type: 'string', default: '8' },
  prefix: { type: 'string' },
} as const;

/** The manifest's path and name, and the alias prefix its indexes live under unless `--prefix` says otherwise. */
export function evalDataset(manifest: string, prefix: string | undefined) {
  const manifestPath = resolve(manifest);
  const manifestName = basename(manifestPath).replace(/\.json$/, '');
  const fallback =
    manifestName === 'sample' ? 'eval-sample-' : manifestName === 'bulk' ? 'bulk-' : `eval-${manifestName}-`;
  return { manifestPath, manifestName, prefix: prefix ?? fallback };
}
