/** The code's build version (src/http/buildVersion.ts), which every ETag names: a deploy that changes code changes it. */
import { cpSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildVersion, sourceVersion } from '../../../../src/http/buildVersion.js';

const SRC = join(import.meta.dirname, '../../../../src');
const copies: string[] = [];
const copyOfSrc = () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-version-'));
  copies.push(dir);
  cpSync(SRC, dir, { recursive: true });
  return dir;
};

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('build version', () => {
  it('is the same for the same sources and changes with any source file', () => {
    const copy = copyOfSrc();
    expect(sourceVersion(copy)).toBe(buildVersion());
    appendFileSync(join(copy, 'http/conditional.ts'), '\n// one more line\n');
    expect(sourceVersion(copy)).not.toBe(buildVersion());
  });

  it('changes with a new file, and ignores files that are not code', () => {
    const copy = copyOfSrc();
    writeFileSync(join(copy, 'notes.md'), 'not code');
    expect(sourceVersion(copy)).toBe(buildVersion());
    writeFileSync(join(copy, 'extra.ts'), 'export {};\n');
    expect(sourceVersion(copy)).not.toBe(buildVersion());
  });
});
