#!/usr/bin/env node
// Checks every relative link of the repository's Markdown (README.md, docs/**, indexer/README.md and the others):
// the file it names exists, and the heading it names (#anchor) is one that file has, with GitHub's heading slugs.
// Prints each broken link as `file:line target: what is wrong` and exits 1 if there is any; plain Node, no
// dependencies, so `npm run lint` can run it. test/unit/scripts/docsLinks.test.ts runs it and tests its reading of Markdown.
//
//   node scripts/checkDocLinks.mjs [root]     (default: the repository)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const skipped = new Set(['node_modules', 'dist', '.git', '.cache', 'coverage', 'test-output', 'rejects']);
const fence = /^\s{0,3}(`{3,}|~{3,})/;

/** The lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown) {
  const lines = [];
  let open;
  markdown.split('\n').forEach((text, index) => {
    const marker = fence.exec(text)?.[1];
    if (marker !== undefined) {
      if (open === undefined) open = marker[0].repeat(3);
      else if (text.trim().startsWith(open)) open = undefined;
      return;
    }
    if (open === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/**
 * GitHub's anchor for a heading's text (github-slugger): the rendered text lower-cased, every character that is not
 * a letter, a digit, a space, '-' or '_' removed, each space turned into '-'. Inline code keeps its text, a link
 * its label.
 * @param {string} heading
 */
export function githubSlug(heading) {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a file offers: its headings' slugs (a repeated one gets -1, -2, …) and explicit `id`/`name`s.
 * @param {string} markdown
 */
export function markdownAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      let anchor = slug;
      let count = seen.get(slug) ?? 0;
      while (anchors.has(anchor)) anchor = `${slug}-${++count}`;
      seen.set(slug, count);
      anchors.add(anchor);
    }
    for (const match of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/**
 * The links of a file that point inside the repository: inline `[text](target)`, images and reference definitions,
 * outside code; web addresses left out.
 * @param {string} markdown
 */
export function relativeLinks(markdown) {
  const links = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
      ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]),
    ];
    for (const target of targets) {
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue;
      links.push({ target, line });
    }
  }
  return links;
}

/** Every Markdown file under `dir`, but in the folders nobody writes (dependencies, builds, caches). */
export function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Every broken relative link of the Markdown under `root`, as `file:line target: what is wrong`. */
export function brokenLinks(root) {
  const anchorsOf = new Map();
  const anchors = (file) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, markdownAnchors(readFileSync(file, 'utf8')));
    return anchorsOf.get(file);
  };
  const problem = (file, target) => {
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const destination = path === '' ? file : resolve(dirname(file), path);
    if (!existsSync(destination)) return 'no such file';
    if (anchor === undefined) return undefined;
    if (statSync(destination).isDirectory() || !destination.endsWith('.md'))
      return 'an anchor into a non-Markdown file';
    return anchors(destination).has(anchor) ? undefined : `no heading #${anchor}`;
  };
  return markdownFiles(root).flatMap((file) =>
    relativeLinks(readFileSync(file, 'utf8')).flatMap(({ target, line }) => {
      const wrong = problem(file, target);
      return wrong === undefined ? [] : [`${relative(root, file)}:${line} ${target}: ${wrong}`];
    }),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const broken = brokenLinks(root);
  for (const line of broken) console.error(line);
  if (broken.length > 0) {
    console.error(`${broken.length} broken link(s) in the Markdown under ${root}`);
    process.exit(1);
  }
  console.log(`every relative link of the ${markdownFiles(root).length} Markdown files under ${root} leads somewhere`);
}
