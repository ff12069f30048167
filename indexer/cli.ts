/**
 * npm run index -- --manifest datasets/sample.json [--prefix P] [--keep N] [--max-reject-ratio R]
 *                  [--rejects FILE] [--progress auto|json|none] [--if-empty] [--lease SECONDS]
 * npm run index -- update --manifest FILE [--dry-run] [--max-change-ratio R] [index's options]
 * npm run index -- rollback [--prefix P] [--lease SECONDS]
 * npm run index -- status [--prefix P]
 * npm run index -- validate --manifest FILE [--max-reject-ratio R]   (no Elasticsearch; exit 0 or 1)
 *
 * ELASTICSEARCH_URL (default http://127.0.0.1:9200; several nodes comma-separated), INDEX_PREFIX, INDEX_SHARDS,
 * INDEX_REPLICAS and LOG_LEVEL come from the environment (src/config/indexer.ts); INDEXER_BULK_CONCURRENCY and
 * INDEXER_BULK_FLUSH_BYTES override the bulk tuning.
 * The summary is printed to stdout as JSON; logs and progress go to stderr. A run or rollback on a prefix whose
 * lock another one holds (runLock.ts) fails at once: one line on stderr naming the holder, exit 1.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { type IndexerConfig, loadIndexerConfig } from '../core/config/indexer.js';
import { INDEX_PREFIX_PATTERN, INDEX_PREFIX_RULE } from '../core/config/rules.js';
import { createElasticsearchClient } from '../core/elasticsearch/client.js';
import type { BulkTuning } from './execution/bulkLoader.js';
import { IndexingAbortedError, IndexingError } from './execution/errors.js';
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from './base/logger.js';
import { aliasesExist, rollback } from './generations/generations.js';
import { ManifestError } from './manifest/manifest.js';
import { runIndexing } from './commands/index.js';
import { runUpdate } from './commands/update.js';
import { generationStatus } from './commands/status.js';
import { validateManifest } from './commands/validate.js';
import { type LeaseTiming, leaseOfSeconds, RunLockedError } from './generations/runLock.js';
import type { RunOptions } from './pipeline/runOptions.js';

const USAGE = `usage:
  npm run index -- --manifest FILE [--prefix P] [--keep N] [--max-reject-ratio R] [--rejects FILE] [--progress auto|json|none] [--if-empty] [--lease SECONDS] [--row-cache DIR]
  npm run index -- update --manifest FILE [--dry-run] [--max-change-ratio R] [--prefix P] [--keep N] [--max-reject-ratio R] [--lease SECONDS] [--row-cache DIR]
  npm run index -- rollback [--prefix P] [--lease SECONDS]
  npm run index -- status [--prefix P]
  npm run index -- validate --manifest FILE [--max-reject-ratio R]
validate: the run's checks and a full read of every file, without Elasticsearch; exit 0 when a run would accept
  the input, 1 when not (the report on stdout says why).
--keep N: complete generations to keep, counting the live one (default 2); the one live before the run and its
  predecessor are always kept. update: applies a new snapshot of the manifest's sources to the live generation as a
  change set (a new generation, swapped like a full run); --dry-run prints the change set and writes nothing;
  --max-change-ratio (default 0.1) refuses a change set larger than that share of a kind's live documents.
  --row-cache DIR (default row-cache/): where each generation's address rows are kept, so that update replays the
  rows a new snapshot did not change instead of deriving them again; without it update still works, reading in full. --lease: the prefix lock's lease (default 120 s), how long a crashed run blocks it.
environment: ELASTICSEARCH_URL (default http://127.0.0.1:9200; several comma-separated), INDEX_PREFIX, INDEX_SHARDS, INDEX_REPLICAS,
  INDEXER_ROW_CACHE_DIR (what --row-cache sets)`;

export interface CliArgs {
  command: 'index' | 'update' | 'rollback' | 'status' | 'validate';
  manifest?: string;
  prefix: string;
  keep: number;
  maxRejectRatio: number;
  rejects?: string;
  progress: 'auto' | 'json' | 'none';
  /** Index only when the aliases do not exist yet (a first deployment's sample load); otherwise do nothing. */
  ifEmpty: boolean;
  /** The run lock's lease in seconds; unset: runLock.ts's default. */
  leaseSeconds?: number;
  /** update: compute and print the change set only. */
  dryRun?: boolean;
  /** update: the largest share of a kind's live documents a change set may touch. */
  maxChangeRatio?: number;
  /** Where generations' address rows are kept for update (indexer/rows/). */
  rowCache?: string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Pure: argv + the environment's configuration → validated arguments. */
export function parseCli(argv: string[], config: Pick<IndexerConfig, 'indexPrefix'>): CliArgs {
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
      'row-cache': { type: 'string' },
      progress: { type: 'string' },
      'if-empty': { type: 'boolean' },
      lease: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'max-change-ratio': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const [command = 'index', ...rest] = positionals;
  if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}\n${USAGE}`);
  if (
    command !== 'index' &&
    command !== 'update' &&
    command !== 'rollback' &&
    command !== 'status' &&
    command !== 'validate'
  ) {
    throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
  const prefix = values.prefix ?? config.indexPrefix;
  if (!INDEX_PREFIX_PATTERN.test(prefix)) throw new UsageError(`--prefix: ${INDEX_PREFIX_RULE}`);
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
  const leaseSeconds = values.lease === undefined ? undefined : Number(values.lease);
  if (leaseSeconds !== undefined && !(Number.isInteger(leaseSeconds) && leaseSeconds >= 1)) {
    throw new UsageError('--lease must be a whole number of seconds, at least 1');
  }
  const maxChangeRatio = values['max-change-ratio'] === undefined ? 0.1 : Number(values['max-change-ratio']);
  if (!Number.isFinite(maxChangeRatio) || maxChangeRatio < 0 || maxChangeRatio > 1) {
    throw new UsageError('--max-change-ratio must be a number between 0 and 1');
  }
  if (command !== 'update' && (values['dry-run'] || values['max-change-ratio'] !== undefined)) {
    throw new UsageError(`--dry-run and --max-change-ratio belong to update\n${USAGE}`);
  }
  if ((command === 'index' || command === 'update' || command === 'validate') && !values.manifest)
    throw new UsageError(`--manifest is required\n${USAGE}`);
  return {
    command,
    ...(values.manifest !== undefined ? { manifest: values.manifest } : {}),
    prefix,
    keep,
    maxRejectRatio,
    ...(values.rejects !== undefined ? { rejects: values.rejects } : {}),
    ...(values['row-cache'] !== undefined ? { rowCache: values['row-cache'] } : {}),
    progress,
    ifEmpty: values['if-empty'] ?? false,
    ...(leaseSeconds !== undefined ? { leaseSeconds } : {}),
    ...(command === 'update' ? { dryRun: values['dry-run'] ?? false, maxChangeRatio } : {}),
  };
}

/** Bulk tuning knobs for benchmarks and unusual clusters; the defaults are the measured best. */
export function tuningFromConfig(
  config: Pick<IndexerConfig, 'bulkConcurrency' | 'bulkFlushBytes'>,
): Partial<BulkTuning> {
  const tuning: Partial<BulkTuning> = {};
  if (config.bulkConcurrency !== undefined) tuning.concurrency = config.bulkConcurrency;
  if (config.bulkFlushBytes !== undefined) tuning.flushBytes = config.bulkFlushBytes;
  return tuning;
}

async function main(): Promise<number> {
  let config: IndexerConfig;
  let args: CliArgs;
  try {
    // A ConfigError (a bad environment variable) ends here too: printed, exit 2, like a usage error.
    config = loadIndexerConfig(process.env);
    args = parseCli(process.argv.slice(2), config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return error instanceof UsageError && process.argv.includes('--help') ? 0 : 2;
  }
  if (args.command === 'validate') {
    // Reads files only: no Elasticsearch client, no log.
    const report = await validateManifest(args.manifest as string, { maxRejectRatio: args.maxRejectRatio });
    printJson(report);
    return report.ok ? 0 : 1;
  }
  // With a progress bar on the terminal, info lines would tear it; they stay on for logs and CI.
  const barShown = args.progress === 'auto' && process.stderr.isTTY;
  const log = pino({ level: config.logLevel ?? (barShown ? 'warn' : 'info') }, pino.destination(2));
  const client = createElasticsearchClient({
    url: config.elasticsearchUrl,
    // Long enough for a 5 MB bulk request on a busy node; refresh and force-merge are polled anyway.
    requestTimeoutMs: 300_000,
    maxRetries: 3,
  });
  try {
    return await runCommand(args, config, client, log);
  } catch (error) {
    return failureExit(error, log);
  } finally {
    await client.close();
  }
}

/** The commands that talk to Elasticsearch: status, rollback, and a run (full or update). */
async function runCommand(args: CliArgs, config: IndexerConfig, client: Client, log: Logger): Promise<number> {
  const lease = args.leaseSeconds === undefined ? undefined : leaseOfSeconds(args.leaseSeconds);
  if (args.command === 'status') {
    printJson(await generationStatus(client, args.prefix));
    return 0;
  }
  if (args.command === 'rollback') {
    const result = await rollback(client, args.prefix, lease, log);
    printJson({ prefix: args.prefix, rolledBack: result });
    return 0;
  }
  if (args.ifEmpty && (await aliasesExist(client, args.prefix))) {
    process.stdout.write(`${JSON.stringify({ prefix: args.prefix, skipped: 'aliases exist' })}\n`);
    return 0;
  }
  const runOptions = runOptionsOf(args, config, { client, log, lease });
  const summary =
    args.command === 'update'
      ? await runUpdate({ ...runOptions, dryRun: args.dryRun ?? false, maxChangeRatio: args.maxChangeRatio ?? 0.1 })
      : await runIndexing(runOptions);
  printJson(summary);
  return 0;
}

function runOptionsOf(
  args: CliArgs,
  config: IndexerConfig,
  { client, log, lease }: { client: Client; log: Logger; lease: LeaseTiming | undefined },
): RunOptions {
  return {
    client,
    manifestPath: args.manifest as string,
    indexPrefix: args.prefix,
    keep: args.keep,
    maxRejectRatio: args.maxRejectRatio,
    ...(args.rejects !== undefined ? { rejectsPath: args.rejects } : {}),
    ...((args.rowCache ?? config.rowCacheDir) !== undefined
      ? { rowCacheDir: args.rowCache ?? config.rowCacheDir }
      : {}),
    progress: args.progress,
    log,
    tuning: tuningFromConfig(config),
    layout: { shards: config.indexShards, replicas: config.indexReplicas },
    ...(lease ? { lease } : {}),
  };
}

/** A failed command's exit code, and what is printed of it. */
function failureExit(error: unknown, log: Logger): number {
  // A manifest that cannot be read or validated is bad input, like a bad flag: no run began, so no summary and
  // no log line, only the message (it names the file and every issue), and exit 2.
  if (error instanceof ManifestError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (error instanceof RunLockedError) {
    // Nothing was created or changed: the holder and its lease are all there is to say.
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  if (error instanceof IndexingError && error.summary) printJson(error.summary);
  log.error({ error: (error as Error).message }, 'failed');
  if (error instanceof IndexingAbortedError) return error.signalName === 'SIGTERM' ? 143 : 130;
  return 1;
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
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
