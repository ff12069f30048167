/** The start-up check that the dependency patch is installed (src/elasticsearch/transportPatch.ts). */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATCH_MARK, transportPatched } from '../../../../src/elasticsearch/transportPatch.js';

describe('transport patch check', () => {
  it('finds the patch npm ci applied', () => {
    expect(transportPatched()).toBe(true);
  });

  it('tells an install without it (one build unpatched, or nothing there) from a patched one', () => {
    const installed = dirname(createRequire(import.meta.url).resolve('@elastic/transport/package.json'));
    const copy = mkdtempSync(join(tmpdir(), 'transport-'));
    try {
      for (const build of ['lib', 'esm'])
        cpSync(join(installed, build, 'Transport.js'), join(copy, build, 'Transport.js'));
      expect(transportPatched(copy)).toBe(true);
      const esm = join(copy, 'esm', 'Transport.js');
      writeFileSync(esm, readFileSync(esm, 'utf8').replace(PATCH_MARK, 'function unpatched()'));
      expect(transportPatched(copy)).toBe(false);
      expect(transportPatched(join(copy, 'missing'))).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
