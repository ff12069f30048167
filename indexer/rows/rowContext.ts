/**
 * What a row cache's rows were derived with (rowCache.ts): the manifest (but for its address files' names), the bytes
 * of every file it names except the address files themselves (boundaries, street-name and lookup tables: a moved boundary or a renamed street changes
 * what unchanged rows derive to), and the indexer's own code. One SHA-256 over all of it; a row cache is replayed
 * only under an equal digest, so an upgrade or a new boundary file means one update the full way.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinTables } from '../manifest/manifest.js';
import type { Manifest } from '../manifest/manifestSchema.js';
import { LEVELS } from '../base/levels.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The code that reads, joins and derives rows. */
const CODE_DIRS = ['indexer', 'core'];

async function* codeFiles(dir: string): AsyncGenerator<string> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* codeFiles(path);
    else if (/\.(ts|js|json)$/.test(entry.name)) yield path;
  }
}

let codeDigest: Promise<string> | undefined;

/** The indexer's code, once per process. */
function indexerCode(): Promise<string> {
  codeDigest ??= (async () => {
    const hash = createHash('sha256');
    for (const dir of CODE_DIRS) {
      for await (const file of codeFiles(join(REPO, dir)))
        hash.update(file.slice(REPO.length)).update(await readFile(file));
    }
    return hash.digest('hex');
  })();
  return codeDigest;
}

/** The address source files: what a row cache holds rows of. */
export function addressFiles(manifest: Manifest): string[] {
  return (manifest.levels.addresses ?? []).map((s) => s.file);
}

export async function rowContextDigest(manifest: Manifest): Promise<string> {
  const hash = createHash('sha256');
  // The address files themselves are what changes between snapshots (often under a new name): not part of it.
  const levels = { ...manifest.levels, addresses: (manifest.levels.addresses ?? []).map((s) => ({ ...s, file: '' })) };
  hash.update(JSON.stringify({ ...manifest, levels })).update(await indexerCode());
  const files = new Set<string>();
  for (const level of LEVELS) {
    for (const source of manifest.levels[level] ?? []) {
      if (source.format === 'derived') continue;
      if (level !== 'addresses') files.add(source.file);
      for (const table of joinTables(source)) files.add(table.file);
    }
  }
  for (const file of [...files].sort()) {
    hash.update(file);
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}
