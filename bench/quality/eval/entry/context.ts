/**
 * What every entry-point evaluation (free text, autocomplete, reverse) is given by `npm run eval:entry`
 * (bench/quality/entryPointEval.ts): the live indexes, the real app on an ephemeral port, and the sampling rules.
 */
import type { Client } from '@elastic/elasticsearch';

export interface ApiAnswer {
  status: number;
  json: any;
  ms: number;
}

export interface EntryEvalContext {
  client: Client;
  /** Alias prefix of the indexes under evaluation (`<prefix>addresses`, `<prefix>areas`, `<prefix>buildings`). */
  prefix: string;
  /** `sample` or `bulk`: evaluations that need a focus point on large data read it from here. */
  manifestName: string;
  /** The manifest's path: evaluations that read the sources themselves (the register's own box strings). */
  manifestPath: string;
  /** At most this many cases per evaluation (Infinity: every eligible record, as on the Delft sample). */
  limit: number;
  seed: string;
  api: {
    get(pathAndQuery: string): Promise<ApiAnswer>;
    post(path: string, body: unknown): Promise<ApiAnswer>;
  };
  /** Runs `fn` over `items` with the configured concurrency, in input order of results. */
  runAll<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
  log(message: string): void;
}

export interface EntryEvaluation {
  /** e.g. "reverse" */
  name: string;
  /** A Markdown table, printed and kept in the results file. */
  table: string;
  /** Whether every target of this evaluation is met. */
  pass: boolean;
  /** Numbers for the results JSON (rates, latencies, counts, first failures). */
  summary: Record<string, unknown>;
}

export type EntryEvaluator = (ctx: EntryEvalContext) => Promise<EntryEvaluation>;

/** p-th percentile (0..100) of latencies in ms, one decimal. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[at] as number) * 10) / 10;
}

export const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/** A Markdown table from a header and rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const lines = [header, header.map(() => '---'), ...rows.map((r) => r.map(String))];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** How many misses of one class each evaluation prints (stderr) and keeps in the results file. */
export const MISSES_SHOWN = 25;

export interface Miss {
  query: string;
  expected: string;
  got: unknown;
}

/** Prints a class's misses to stderr, one line each (query, expected, got), at most MISSES_SHOWN. */
export function logMisses(ctx: Pick<EntryEvalContext, 'log'>, label: string, misses: readonly Miss[]): void {
  for (const m of misses.slice(0, MISSES_SHOWN)) {
    ctx.log(`miss [${label}] ${m.query} | expected ${m.expected} | got ${JSON.stringify(m.got)}`);
  }
}
