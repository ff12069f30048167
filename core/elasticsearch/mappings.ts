import { readFileSync } from 'node:fs';
import type { IndexKind } from './documents.js';

export interface IndexDefinition {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
}

const cache = new Map<IndexKind, IndexDefinition>();

/** `mappings/<kind>.json` is the one source of truth for index settings and mappings. */
export function indexDefinition(kind: IndexKind): IndexDefinition {
  let def = cache.get(kind);
  if (!def) {
    const url = new URL(`../../mappings/${kind}.json`, import.meta.url);
    def = JSON.parse(readFileSync(url, 'utf8')) as IndexDefinition;
    cache.set(kind, def);
  }
  return structuredClone(def);
}
