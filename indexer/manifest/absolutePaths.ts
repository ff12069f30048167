/**
 * A manifest's JSON with every `file` resolved against the manifest's folder (pure), so a copy of it written
 * elsewhere (a changed snapshot beside its own files, a bench's temporary manifest) still names the same sources.
 */
import { resolve } from 'node:path';

type Json = Record<string, unknown>;

export function absolutePaths(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((v) => absolutePaths(v, base));
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) {
      out[k] = k === 'file' && typeof v === 'string' ? resolve(base, v) : absolutePaths(v, base);
    }
    return out;
  }
  return value;
}
