/**
 * Reading Markdown the way GitHub renders it, enough to check links: the anchors its headings get and the relative
 * links a file holds. Pure: text in, values out (test/unit/docsLinks.test.ts does the file system).
 */

/** A relative link as written (`docs/api.md#errors`, `#quick-start`, `map.png`), with its 1-based line. */
export interface MarkdownLink {
  target: string;
  line: number;
}

const fence = /^\s{0,3}(`{3,}|~{3,})/;

/** The lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let open: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const marker = fence.exec(text)?.[1];
    if (marker !== undefined) {
      if (open === undefined) open = marker[0]!.repeat(3);
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
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file offers: its headings' slugs (a repeated one gets -1, -2, …) and explicit `id`/`name`s. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
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
    for (const match of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** The links of a file that point inside the repository: inline `[text](target)`, images and reference definitions. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue;
      links.push({ target, line });
    }
  }
  return links;
}
