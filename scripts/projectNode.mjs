// Which Node.js the project runs on (.node-version, a 24 LTS) and whether a given one is too old: the one place
// checkNode.mjs and linkNode.mjs decide it. Plain syntax on purpose, so that even a very old Node can parse it.
import { readFileSync } from 'node:fs';

export const wanted = readFileSync(new URL('../.node-version', import.meta.url), 'utf8').trim();

/** True when Node.js `version` (like '20.20.2') is of an older major than the project's. */
export function isTooOld(version) {
  return Number(version.split('.')[0]) < Number(wanted.split('.')[0]);
}

/**
 * The Node.js version npm runs on, from the user agent npm hands its scripts ('npm/11.19.1 node/v20.20.2 linux x64'):
 * a script npm starts may itself run on another node (node_modules/.bin/node). `fallback` when npm names none.
 */
export function npmNodeVersion(userAgent, fallback) {
  const match = /\bnode\/v(\d+\.\d+\.\d+)/.exec(userAgent || '');
  return match ? match[1] : fallback;
}

/** What to type so a shell's `node` is the project's (installed once from the npm registry). */
export const shellHint = 'eval "$(bash scripts/node24.sh)"';
