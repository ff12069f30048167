import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The service logger in its own process (it writes to stdout and flushes at exit), as the service runs it. */
function linesLogged(script: string): Record<string, unknown>[] {
  const program = `import { createServiceLogger } from './src/logger.ts';\nconst logger = createServiceLogger('info');\n${script}`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('service logger', () => {
  it('writes every line, in order, across many blocks, by the time the process exits', () => {
    const lines = linesLogged(`for (let i = 0; i < 3000; i++) logger.info({ i }, 'request');`);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  }, 120_000);
});
