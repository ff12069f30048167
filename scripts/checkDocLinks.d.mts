/** Types of scripts/checkDocLinks.mjs, for the tests that import it. */
export interface MarkdownLink {
  /** As written: `docs/api.md#errors`, `#quick-start`, `map.png`. */
  target: string;
  /** 1-based. */
  line: number;
}
export function githubSlug(heading: string): string;
export function markdownAnchors(markdown: string): Set<string>;
export function relativeLinks(markdown: string): MarkdownLink[];
export function markdownFiles(dir: string): string[];
export function brokenLinks(root: string): string[];
