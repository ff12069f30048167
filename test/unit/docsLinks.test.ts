import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { githubSlug, markdownAnchors, relativeLinks } from '../support/markdownLinks.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const skipped = new Set(['node_modules', 'dist', '.git', '.cache', 'coverage', 'test-output', 'rejects']);

/** Every Markdown file of the repository: README.md, docs/**, indexer/README.md and the others. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (found === undefined) {
    found = markdownAnchors(readFileSync(file, 'utf8'));
    anchorsOf.set(file, found);
  }
  return found;
}

/** What is wrong with one link of `file`, or undefined when it leads somewhere. */
function brokenLink(file: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const destination = path === '' ? file : resolve(dirname(file), path);
  if (!existsSync(destination)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (statSync(destination).isDirectory() || !destination.endsWith('.md')) return 'an anchor into a non-Markdown file';
  return anchors(destination).has(anchor) ? undefined : `no heading #${anchor}`;
}

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

describe('the documentation links', () => {
  const files = markdownFiles(repoRoot);

  it('covers the README, docs/ and the indexer README', () => {
    const names = files.map((file) => relative(repoRoot, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'indexer/README.md']));
  });

  it('lead to files that exist and to headings those files have', () => {
    const broken = files.flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8')).flatMap(({ target, line }) => {
        const problem = brokenLink(file, target);
        return problem === undefined ? [] : [`${relative(repoRoot, file)}:${line} ${target}: ${problem}`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
