/**
 * npm run index -- --manifest datasets/sample.json [--prefix P] [--keep N] [--max-reject-ratio R]
 *                  [--rejects FILE] [--progress auto|json|none]
 * npm run index -- rollback [--prefix P]
 * npm run index -- status [--prefix P]
 *
 * ELASTICSEARCH_URL (default http://127.0.0.1:9200) and INDEX_PREFIX come from the environment;
 * INDEXER_BULK_CONCURRENCY and INDEXER_BULK_FLUSH_BYTES override the bulk tuning.
 * The summary is printed to stdout as JSON; logs and progress go to stderr.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createElasticsearchClient } from '../src/elasticsearch/client.js';
import type { BulkTuning } from './bulkLoader.js';
import { listGenerations, rollback } from './generations.js';
import { IndexingAbortedError, IndexingError, runIndexing } from './run.js';

const USAGE = `usage:
  npm run index -- --manifest FILE [--prefix P] [--keep N] [--max-reject-ratio R] [--rejects FILE] [--progress auto|json|none]
  npm run index -- rollback [--prefix P]
  npm run index -- status [--prefix P]
environment: ELASTICSEARCH_URL (default http://127.0.0.1:9200), INDEX_PREFIX`;

export interface CliArgs {
  command: 'index' | 'rollback' | 'status';
  manifest?: string;
  prefix: string;
  keep: number;
  maxRejectRatio: number;
  rejects?: string;
  progress: 'auto' | 'json' | 'none';
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Pure: argv + environment → validated arguments. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      manifest: { type: 'string', short: 'm' },
      prefix: { type: 'string' },
      keep: { type: 'string' },
      'max-reject-ratio': { type: 'string' },
      rejects: { type: 'string' },
      progress: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const [command = 'index', ...rest] = positionals;
  if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}\n${USAGE}`);
  if (command !== 'index' && command !== 'rollback' && command !== 'status') {
    throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
  const prefix = values.prefix ?? env.INDEX_PREFIX ?? '';
  if (!/^[a-z0-9_-]*$/.test(prefix)) throw new UsageError(`--prefix: lower-case letters, digits, "-" and "_" only`);
  const keep = values.keep === undefined ? 2 : Number(values.keep);
  if (!Number.isInteger(keep) || keep < 1) throw new UsageError('--keep must be a positive integer');
  const maxRejectRatio = values['max-reject-ratio'] === undefined ? 0.01 : Number(values['max-reject-ratio']);
  if (!Number.isFinite(maxRejectRatio) || maxRejectRatio < 0 || maxRejectRatio > 1) {
    throw new UsageError('--max-reject-ratio must be a number between 0 and 1');
  }
  const progress = values.progress ?? 'auto';
  if (progress !== 'auto' && progress !== 'json' && progress !== 'none') {
    throw new UsageError('--progress must be auto, json or none');
  }
  if (command === 'index' && !values.manifest) throw new UsageError(`--manifest is required\n${USAGE}`);
  return {
    command,
    ...(values.manifest !== undefined ? { manifest: values.manifest } : {}),
    prefix,
    keep,
    maxRejectRatio,
    ...(values.rejects !== undefined ? { rejects: values.rejects } : {}),
    progress,
  };
}

/** Bulk tuning knobs for benchmarks and unusual clusters; the defaults are the measured best. */
export function tuningFromEnv(env: NodeJS.ProcessEnv): Partial<BulkTuning> {
  const tuning: Partial<BulkTuning> = {};
  const concurrency = Number(env.INDEXER_BULK_CONCURRENCY);
  if (Number.isInteger(concurrency) && concurrency > 0) tuning.concurrency = concurrency;
  const flushBytes = Number(env.INDEXER_BULK_FLUSH_BYTES);
  if (Number.isInteger(flushBytes) && flushBytes > 0) tuning.flushBytes = flushBytes;
  return tuning;
}

async function main(): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return error instanceof UsageError && process.argv.includes('--help') ? 0 : 2;
  }
  // With a progress bar on the terminal, info lines would tear it; they stay on for logs and CI.
  const barShown = args.progress === 'auto' && process.stderr.isTTY;
  const log = pino({ level: process.env.LOG_LEVEL ?? (barShown ? 'warn' : 'info') }, pino.destination(2));
  const client = createElasticsearchClient({
    url: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200',
    // Long enough for a 5 MB bulk request on a busy node; refresh and force-merge are polled anyway.
    requestTimeoutMs: 300_000,
    maxRetries: 3,
  });
  try {
    if (args.command === 'status') {
      const generations = await listGenerations(client, args.prefix);
      process.stdout.write(`${JSON.stringify({ prefix: args.prefix, generations }, null, 2)}\n`);
      return 0;
    }
    if (args.command === 'rollback') {
      const result = await rollback(client, args.prefix);
      process.stdout.write(`${JSON.stringify({ prefix: args.prefix, rolledBack: result }, null, 2)}\n`);
      return 0;
    }
    const summary = await runIndexing({
      client,
      manifestPath: args.manifest as string,
      indexPrefix: args.prefix,
      keep: args.keep,
      maxRejectRatio: args.maxRejectRatio,
      ...(args.rejects !== undefined ? { rejectsPath: args.rejects } : {}),
      progress: args.progress,
      log,
      tuning: tuningFromEnv(process.env),
    });
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof IndexingError && error.summary) {
      process.stdout.write(`${JSON.stringify(error.summary, null, 2)}\n`);
    }
    log.error({ error: (error as Error).message }, 'failed');
    if (error instanceof IndexingAbortedError) return error.signalName === 'SIGTERM' ? 143 : 130;
    return 1;
  } finally {
    await client.close();
  }
}

// Only when run as a program, so tests can import parseCli.
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('indexer/cli.ts')) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? error}\n`);
      process.exitCode = 1;
    },
  );
}
