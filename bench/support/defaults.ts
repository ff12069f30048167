/** The settings the benches share, decided here once: where the checkout is and where results go. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout (bench/support/ is two folders down). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where benches write their JSON results and derived manifests (ignored by git). */
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
