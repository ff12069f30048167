/**
 * Waiting until an alias change whose answer failed can no longer happen later. A `_aliases` request whose answer was
 * a reset connection, a timeout or a proxy's 502/504 may still be on its way to the master or queued there: the
 * aliases read back at once would then show them not moved yet, and the caller would delete the indexes the change
 * makes live a moment later (the master carries out the queued swap before the deletion queued behind it).
 */
import type { Client } from '@elastic/elasticsearch';

/** The transport action of `POST /_aliases`: what `_tasks` lists, on any node, while such a request is in flight. */
const ALIAS_ACTION = 'indices:admin/aliases';

/**
 * What the swap's `_aliases` request gives the master to carry it out. A change not begun by then is dropped (the
 * master answers it with a timeout and never applies it), so a wait longer than this sees every such change settle.
 */
export const SWAP_MASTER_TIMEOUT = '30s';
const SETTLE_TIMEOUT = '60s';
const SETTLE_REQUEST_TIMEOUT_MS = 90_000;

/**
 * Resolves once no alias change is in flight on any node (`GET _tasks?actions=indices:admin/aliases&
 * wait_for_completion`) and the master has carried out every change queued before this call (`GET _cluster/health?
 * wait_for_events=languid`); throws when either cannot be confirmed within a minute (then the aliases read back
 * do not tell whether the change is still to come).
 */
export async function settleAliasChanges(client: Client): Promise<void> {
  const options = { requestTimeout: SETTLE_REQUEST_TIMEOUT_MS };
  const tasks = await client.tasks.list(
    { actions: ALIAS_ACTION, wait_for_completion: true, timeout: SETTLE_TIMEOUT },
    options,
  );
  const failures = [...(tasks.node_failures ?? []), ...(tasks.task_failures ?? [])];
  if (failures.length)
    throw new Error(`alias changes still in flight after ${SETTLE_TIMEOUT}: ${JSON.stringify(failures)}`);
  // A timed-out wait answers 408, which the client throws; `timed_out` is checked all the same.
  const health = await client.cluster.health({ wait_for_events: 'languid', timeout: SETTLE_TIMEOUT }, options);
  if (health.timed_out) throw new Error(`the master still had changes queued after ${SETTLE_TIMEOUT}`);
}
