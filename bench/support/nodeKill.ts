/**
 * A node of a local cluster killed under load (`npm run bench:scale -- --kill-node`): the scenarios at a fixed
 * rate, together, while the elected master is SIGKILLed a third of the way in (an election, and the shards it held
 * served by their replicas). Counts what failed; the node is not restarted (the launcher that owns it does that).
 */
import type { Client } from '@elastic/elasticsearch';
import { atRate, rateRow, type Row, type Scenario } from './loadDriver.js';
import { elasticsearchPid } from './processCpu.js';

export interface NodeKill {
  name: string;
  pid: number;
  /** Seconds after the start of the run. */
  at_s: number;
  rows: (Row & { statuses: Record<string, number> })[];
  /** Cluster health right after the run. */
  status_after: string;
}

async function electedMaster(client: Client): Promise<{ name: string; pid: number }> {
  const [master] = await client.cat.master({ format: 'json' });
  const pid = master?.id === undefined ? undefined : await elasticsearchPid(client, master.id);
  if (pid === undefined) throw new Error(`--kill-node: no elected master that is a process on this machine`);
  return { name: master?.node ?? 'unknown', pid };
}

export async function killNodeUnderLoad(
  client: Client,
  scenarios: (Scenario & { fixedRate: number })[],
  seconds: number,
  log: (m: string) => void,
): Promise<NodeKill> {
  const nodes = await client.cat.nodes({ format: 'json' });
  if (nodes.length < 3)
    throw new Error(`--kill-node needs a cluster of three or more nodes (this one has ${nodes.length})`);
  const victim = await electedMaster(client);
  const atS = Math.round(seconds / 3);
  log(`killing the elected master ${victim.name} (pid ${victim.pid}) ${atS} s into ${seconds} s of load`);
  const runs = scenarios.map((s) =>
    atRate(s, s.fixedRate, seconds).then((r) => ({
      ...rateRow(s.name, s.target, r, s.fixedRate),
      statuses: r.statuses,
    })),
  );
  await new Promise((resolve) => setTimeout(resolve, atS * 1000));
  process.kill(victim.pid, 'SIGKILL');
  const rows = await Promise.all(runs);
  const health = await client.cluster.health();
  return { ...victim, at_s: atS, rows, status_after: health.status };
}
