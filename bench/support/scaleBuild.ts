/**
 * A size of `npm run bench:scale` built by the real indexer, as a child process (its memory measured alone, by
 * runWithPeakRss and the indexer's own summary), with what the build took recorded in
 * bench/results/scale-builds.json: a size built once and kept (`--keep`) is measured again later without its build,
 * and the scale table still shows how long the build took.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Client } from '@elastic/elasticsearch';
import { join } from 'node:path';
import type { RunSummary } from '../../indexer/execution/summary.js';
import { runWithPeakRss } from './childPeakRss.js';
import { REPO_ROOT, RESULTS_DIR } from './defaults.js';

/** The cluster a size was built on: a rebuilt cluster (or a three-node one beside a single node) has other builds. */
export interface ClusterIdentity {
  uuid: string;
  nodes: number;
}

export async function clusterIdentity(client: Client): Promise<ClusterIdentity> {
  const state = await client.cluster.state({ metric: 'metadata', filter_path: 'metadata.cluster_uuid' });
  const nodes = await client.cat.nodes({ format: 'json' });
  return {
    uuid: (state as { metadata?: { cluster_uuid?: string } }).metadata?.cluster_uuid ?? 'unknown',
    nodes: nodes.length,
  };
}

export interface BuildRecord {
  prefix: string;
  cluster: ClusterIdentity;
  /** How the size was built: the real indexer, or bench/support/scaleIndexes.ts's copy. */
  how: 'indexer' | 'copy';
  addresses: number;
  seconds: number;
  /** The indexer's peak RSS (null for the copy, which runs in the bench's own process). */
  peak_rss_mb: number | null;
  /** 1-minute load average when the build began: a build on a busy machine is slower. */
  load_average: number;
  built_at: string;
}

const BUILDS_FILE = join(RESULTS_DIR, 'scale-builds.json');

const buildKey = (cluster: ClusterIdentity, prefix: string) => `${cluster.uuid}/${prefix}`;

function readBuildRecords(): Record<string, BuildRecord> {
  return existsSync(BUILDS_FILE) ? (JSON.parse(readFileSync(BUILDS_FILE, 'utf8')) as Record<string, BuildRecord>) : {};
}

/** How the prefix was built on this cluster, if the bench built it. */
export function buildRecordOf(cluster: ClusterIdentity, prefix: string): BuildRecord | null {
  return readBuildRecords()[buildKey(cluster, prefix)] ?? null;
}

export function recordBuild(record: BuildRecord): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const records = { ...readBuildRecords(), [buildKey(record.cluster, record.prefix)]: record };
  writeFileSync(BUILDS_FILE, `${JSON.stringify(records, null, 2)}\n`);
}

/** Runs the indexer on the manifest under the prefix (LOG_LEVEL=warn, no progress) and records the build. */
export async function buildWithIndexer(
  esUrl: string,
  cluster: ClusterIdentity,
  manifestPath: string,
  prefix: string,
): Promise<BuildRecord> {
  const load = loadavg()[0]!;
  const run = await runWithPeakRss(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_ROOT, 'indexer/cli.ts'),
      '--manifest',
      manifestPath,
      '--prefix',
      prefix,
      '--progress',
      'none',
    ],
    { cwd: REPO_ROOT, env: { ...process.env, ELASTICSEARCH_URL: esUrl, LOG_LEVEL: 'warn' } },
  );
  if (run.code !== 0)
    throw new Error(`the indexer exited with ${run.code} on ${manifestPath}: ${run.stdout.slice(0, 2000)}`);
  const summary = JSON.parse(run.stdout) as RunSummary;
  const record: BuildRecord = {
    prefix,
    cluster,
    how: 'indexer',
    addresses: summary.levels.addresses.indexed,
    seconds: Math.round(run.wallMs / 100) / 10,
    peak_rss_mb: Math.max(run.peakRssMb, summary.peakRssMb),
    load_average: Math.round(load * 10) / 10,
    built_at: new Date().toISOString(),
  };
  recordBuild(record);
  return record;
}
