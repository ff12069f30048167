/**
 * The version of the code this process runs, for validators: a digest of every source file under the service's
 * source folder (src/ under tsx, dist/src/ when compiled). Replicas of one build agree without configuration, and
 * a deploy that renders anything differently changes it, so no client keeps a 304 for a body the new code would
 * render otherwise.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_ROOT = join(import.meta.dirname, '..');
const SOURCE_FILE = /\.(ts|js|json)$/;

let computed: string | undefined;

/** Computed once, on first use (a few hundred small files: milliseconds). */
export function buildVersion(): string {
  computed ??= sourceVersion(SOURCE_ROOT);
  return computed;
}

/** The digest of every source file under `root`: its names and contents, in a fixed order. */
export function sourceVersion(root: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE_FILE.test(file))
    .sort();
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('base64url').slice(0, 16);
}
