/**
 * The settings the benches share, decided here once: where the checkout is, where results go, the key the API
 * processes they start accept, the alias prefixes the benchmark data lives under, and the seed queries are drawn
 * with. A bench's own command-line options default to these.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout (bench/support/ is two folders down). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where benches write their JSON results and derived manifests (ignored by git). */
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

/** The API key of every API process a bench starts (the chaos run uses its own). */
export const BENCH_API_KEY = 'bench-key';

/** The alias prefix of the bulk data (`datasets/bulk.json`) the load benches index and the others read. */
export const BULK_PREFIX = 'bench-bulk-';

/** The alias prefix of the Delft sample (`datasets/sample.json`) as the load benches index it. */
export const SAMPLE_PREFIX = 'bench-delft-';

/** The seed the benches draw their queries with, so runs and builds see the same requests. */
export const BENCH_SEED = 42;

/** ELASTICSEARCH_URL, which a bench that only reads needs: a node holding the `--prefix` data. */
export function elasticsearchUrlFromEnv(): string {
  const url = process.env.ELASTICSEARCH_URL;
  if (!url) throw new Error('ELASTICSEARCH_URL is required (a node holding the --prefix data)');
  return url;
}
