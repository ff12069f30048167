/**
 * CPU time of processes on this machine, from /proc: how many milliseconds of CPU each request costs the API,
 * Elasticsearch and the load generator. Throughput on a shared box is capacity divided by the sum of these.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Client } from '@elastic/elasticsearch';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU of a process and its threads so far, in ms; undefined when it is not on this machine. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  // Fields after the command name: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * The pid of an Elasticsearch node (by default the one the client asks), when it runs on this machine (a local
 * launcher or a local install).
 */
export async function elasticsearchPid(client: Client, nodeId = '_local'): Promise<number | undefined> {
  const info = await client.nodes.info({ node_id: nodeId, metric: 'process' });
  const pid = Object.values(info.nodes)[0]?.process?.id;
  if (pid === undefined || !existsSync(`/proc/${pid}/cmdline`)) return undefined;
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('elasticsearch') ? pid : undefined;
}

/**
 * Waits until Elasticsearch has been nearly idle (under a fifth of a core) for two seconds: right after a bulk
 * load it keeps writing and collecting garbage for a while, and a benchmark started then measures that.
 */
export async function waitUntilQuiet(pid: number | undefined, log: (m: string) => void, maxSeconds = 120) {
  if (pid === undefined) return;
  const started = Date.now();
  for (;;) {
    const before = processCpuMs(pid) ?? 0;
    await new Promise((r) => setTimeout(r, 2000));
    const busy = ((processCpuMs(pid) ?? 0) - before) / 2000;
    if (busy < 0.2) return;
    if (Date.now() - started > maxSeconds * 1000) {
      log(`Elasticsearch still busy (${Math.round(busy * 100)} % of a core) after ${maxSeconds} s; measuring anyway`);
      return;
    }
    log(`waiting for Elasticsearch to settle (${Math.round(busy * 100)} % of a core)`);
  }
}
