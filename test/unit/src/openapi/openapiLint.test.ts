/**
 * The generated OpenAPI document through a third-party linter: Redocly CLI with its `recommended` rules, as a
 * client team's or an API gateway's pipeline would run it. No Elasticsearch needed: the document is built from
 * the declarations alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiDocument as buildOpenApiDocument } from '../../../../src/wiring/apiDocument.js';

const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('OpenAPI document', () => {
  it('passes Redocly CLI lint (recommended rules) without an error or a warning', () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument()));
    const cli = resolve(import.meta.dirname, '../../../../node_modules/@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      // No telemetry or update check: CI has no internet, and the lint must not wait on one.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      timeout: 60_000,
    });
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
