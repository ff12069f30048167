/**
 * scripts/checkDocLinks.mjs, the documentation's link check (`node scripts/checkDocLinks.mjs`): how it reads
 * Markdown as GitHub renders it, that it catches a broken link, and that every link of this repository leads
 * somewhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { githubSlug, markdownAnchors, markdownFiles, relativeLinks } from '../../../scripts/checkDocLinks.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const script = join(repoRoot, 'scripts/checkDocLinks.mjs');
const check = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('GitHub heading anchors', () => {
  it('lower-cases, drops punctuation but - and _, and turns spaces into -', () => {
    expect(githubSlug('Search box (`GET /search`)')).toBe('search-box-get-search');
    expect(githubSlug('GeoJSON results (`format=geojson`)')).toBe('geojson-results-formatgeojson');
    expect(githubSlug('Quiet machine, 24 Nov 2026 08:20 UTC: after the patch')).toBe(
      'quiet-machine-24-nov-2026-0820-utc-after-the-patch',
    );
    expect(githubSlug('countries › provinces')).toBe('countries--provinces');
    expect(githubSlug('snake_case and [a link](x.md)')).toBe('snake_case-and-a-link');
  });

  it('numbers repeated headings -1, -2 and skips headings inside code blocks', () => {
    const anchors = markdownAnchors('# Notes\n\n## Notes\n\n```sh\n# Notes\n```\n\n### Notes\n');
    expect([...anchors]).toEqual(['notes', 'notes-1', 'notes-2']);
  });

  it('finds relative links outside code, not web addresses', () => {
    const text =
      '[a](docs/api.md#errors) [b](https://example.org) `[c](nowhere.md)`\n\n```\n[d](no.md)\n```\n![e](map.png)';
    expect(relativeLinks(text).map((link) => link.target)).toEqual(['docs/api.md#errors', 'map.png']);
  });
});

describe('node scripts/checkDocLinks.mjs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'doc-links-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('covers the README, docs/ and the indexer README', () => {
    const names = markdownFiles(repoRoot).map((file) => relative(repoRoot, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'indexer/README.md']));
  });

  it('fails on a missing file and a missing heading, naming the file, the line and the link', () => {
    mkdirSync(join(scratch, 'docs'));
    writeFileSync(join(scratch, 'docs/a.md'), '# A\n\n## Quick start\n');
    writeFileSync(
      join(scratch, 'README.md'),
      '# R\n\n[ok](docs/a.md#quick-start) [here](#r)\n[gone](docs/b.md)\n[no heading](docs/a.md#slow-start)\n',
    );
    const run = check(scratch);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('README.md:4 docs/b.md: no such file');
    expect(run.stderr).toContain('README.md:5 docs/a.md#slow-start: no heading #slow-start');
    expect(run.stderr).not.toContain('quick-start:');
  });

  it('passes on this repository: every relative link leads to a file and a heading it has', () => {
    const run = check(repoRoot);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
