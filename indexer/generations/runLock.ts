/**
 * One indexer run (or rollback) per index prefix at a time, held in Elasticsearch itself so runs on different
 * machines see each other: one document in `<prefix>indexer-lock`, created with op_type=create (exactly one
 * creator wins), naming its holder and a lease that the holder renews while it is alive. A holder that died
 * (SIGKILL, power loss) stops renewing; once its lease has expired the next run takes the lock over with a
 * conditional write (if_seq_no/if_primary_term), so of two runs taking over at once exactly one wins.
 *
 * The API never reads this index, and its name matches neither the aliases (`<prefix><kind>`) nor the generation
 * indexes (`<prefix><kind>-<generation>`).
 */
import { hostname } from 'node:os';
import { type Client, errors } from '@elastic/elasticsearch';
import { type Logger, silentLogger } from '../base/logger.js';

export const LOCK_ID = 'lock';

export function lockIndexName(prefix: string): string {
  return `${prefix}indexer-lock`;
}

export interface LockHolder {
  host: string;
  pid: number;
  operation: 'index' | 'update' | 'rollback';
  /** The generation an indexing run writes; null for a rollback. */
  generation: string | null;
}

export interface LockDocument {
  holder: LockHolder;
  acquired_at: string;
  expires_at: string;
}

const lockDocument = (holder: LockHolder, acquiredAt: string, expiresAtMs: number): LockDocument => ({
  holder,
  acquired_at: acquiredAt,
  expires_at: new Date(expiresAtMs).toISOString(),
});

export interface LeaseTiming {
  /** How long the lock stays held without a renewal (what a crashed run blocks the prefix for). */
  leaseMs: number;
  renewEveryMs: number;
}

export const DEFAULT_LEASE: LeaseTiming = { leaseMs: 120_000, renewEveryMs: 30_000 };

/** A lease of `seconds`, renewed four times per lease (a renewal may fail twice before the lease runs out). */
export function leaseOfSeconds(seconds: number): LeaseTiming {
  return { leaseMs: seconds * 1000, renewEveryMs: Math.max(250, Math.floor((seconds * 1000) / 4)) };
}

function describeHolder(h: LockHolder, acquiredAt: string): string {
  const what = h.generation ? `${h.operation} of generation ${h.generation}` : h.operation;
  return `${what} on host ${h.host}, pid ${h.pid}, since ${acquiredAt}`;
}

export class RunLockedError extends Error {
  override name = 'RunLockedError';
  constructor(
    readonly prefix: string,
    readonly holder: LockHolder,
    readonly expiresAt: string,
    acquiredAt: string,
  ) {
    super(
      `index prefix "${prefix}" is locked by another indexer run (${describeHolder(holder, acquiredAt)}); its lease expires at ${expiresAt}`,
    );
  }
}

/** The lease ran out and another run took the lock: this run must not touch the aliases or delete anything. */
export class LockLostError extends Error {
  override name = 'LockLostError';
}

/** Where a write left the lock document; the next conditional write must name it. */
interface WriteResult {
  _seq_no?: number | undefined;
  _primary_term?: number | undefined;
}

function ifUnchanged(w: WriteResult): { if_seq_no: number; if_primary_term: number } {
  if (w._seq_no === undefined || w._primary_term === undefined) throw new Error('lock write without a sequence number');
  return { if_seq_no: w._seq_no, if_primary_term: w._primary_term };
}

const isStatus = (error: unknown, status: number) =>
  error instanceof errors.ResponseError && error.meta.statusCode === status;

async function ensureLockIndex(client: Client, index: string): Promise<void> {
  if (await client.indices.exists({ index })) return;
  try {
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, auto_expand_replicas: '0-1' },
      // Read by id only: nothing in it needs indexing.
      mappings: { dynamic: false, properties: {} },
      wait_for_active_shards: 1,
    });
  } catch (error) {
    const type = ((error as errors.ResponseError).body as { error?: { type?: string } } | undefined)?.error?.type;
    if (type !== 'resource_already_exists_exception') throw error;
  }
}

/** Who holds the prefix's lock now and until when (null when free), for `status`. */
export async function readRunLock(client: Client, prefix: string): Promise<LockDocument | null> {
  const res = await client.get<LockDocument>({ index: lockIndexName(prefix), id: LOCK_ID }, { ignore: [404] });
  return res.found && res._source ? res._source : null;
}

export interface AcquireOptions {
  lease?: Partial<LeaseTiming> | undefined;
  log?: Logger | undefined;
  now?: () => number;
}

/**
 * Takes the prefix's lock or fails at once with RunLockedError naming the holder. Renewal starts right away;
 * call `release()` when done, whatever happened.
 */
export async function acquireRunLock(
  client: Client,
  prefix: string,
  who: Pick<LockHolder, 'operation' | 'generation'>,
  options: AcquireOptions = {},
): Promise<RunLock> {
  const lease = { ...DEFAULT_LEASE, ...options.lease };
  const now = options.now ?? Date.now;
  const log = options.log ?? silentLogger;
  const index = lockIndexName(prefix);
  const holder: LockHolder = { host: hostname(), pid: process.pid, ...who };
  const acquiredAt = new Date(now()).toISOString();
  const document = (): LockDocument => lockDocument(holder, acquiredAt, now() + lease.leaseMs);
  const lock = (written: WriteResult) => new RunLock({ client, prefix, holder, acquiredAt, lease, log, now }, written);
  await ensureLockIndex(client, index);
  // A few rounds at most: each lost race ends with the winner's lock, which the next round reports.
  for (let round = 0; round < 3; round++) {
    try {
      const created = await client.create({ index, id: LOCK_ID, document: document() });
      return lock(created);
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
    }
    const current = await client.get<LockDocument>({ index, id: LOCK_ID }, { ignore: [404] });
    if (!current.found || !current._source) continue; // released in between: create it again
    const held = current._source;
    if (Date.parse(held.expires_at) > now()) {
      throw new RunLockedError(prefix, held.holder, held.expires_at, held.acquired_at);
    }
    try {
      const taken = await client.index({
        index,
        id: LOCK_ID,
        document: document(),
        ...ifUnchanged(current),
      });
      log.warn(
        { previousHolder: held.holder, expiredAt: held.expires_at },
        'took over the indexer lock of a run whose lease had expired',
      );
      return lock(taken);
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
      // Another run took it over (or its holder renewed) first: the next round reports who holds it.
    }
  }
  throw new Error(`could not take the indexer lock of prefix "${prefix}": it keeps changing hands`);
}

interface LockSetup {
  client: Client;
  prefix: string;
  holder: LockHolder;
  acquiredAt: string;
  lease: LeaseTiming;
  log: Logger;
  now: () => number;
}

export class RunLock {
  private readonly timer: NodeJS.Timeout;
  private readonly lostController = new AbortController();
  /** Renewals one at a time: two in flight with one seq_no would make the second look like a lost lock. */
  private chain: Promise<boolean> = Promise.resolve(true);
  private released = false;

  constructor(
    private readonly setup: LockSetup,
    /** Our last write of the lock: every renewal and the release are conditional on it being the latest. */
    private written: WriteResult,
  ) {
    this.timer = setInterval(() => void this.renew(), setup.lease.renewEveryMs);
    // A forgotten release must not keep the process alive; a live run keeps it alive anyway.
    this.timer.unref();
  }

  get holder(): LockHolder {
    return this.setup.holder;
  }

  /** Aborted (with LockLostError) once a renewal finds that another run has taken the lock. */
  get lostSignal(): AbortSignal {
    return this.lostController.signal;
  }

  /**
   * Extends the lease, conditionally on nobody having written the lock since our last write; true when it did.
   * A transient error is only logged: the next renewal tries again.
   */
  renew(): Promise<boolean> {
    const next = this.chain.then(() => this.renewOnce());
    this.chain = next;
    return next;
  }

  private async renewOnce(): Promise<boolean> {
    const { client, prefix, holder, acquiredAt, lease, log, now } = this.setup;
    if (this.released || this.lostSignal.aborted) return false;
    try {
      const res = await client.index({
        index: lockIndexName(prefix),
        id: LOCK_ID,
        document: lockDocument(holder, acquiredAt, now() + lease.leaseMs),
        ...ifUnchanged(this.written),
      });
      this.written = res;
      return true;
    } catch (error) {
      // 409: written by someone else since; 404: deleted (by hand). Either way it is no longer ours.
      if (isStatus(error, 409) || isStatus(error, 404)) {
        const message = `lost the indexer lock of prefix "${prefix}": its lease expired and another run took it over`;
        this.lostController.abort(new LockLostError(message));
      } else {
        log.warn({ error: (error as Error).message }, 'could not renew the indexer lock; retrying');
      }
      return false;
    }
  }

  /**
   * Renews now and throws LockLostError unless that confirmed this run still holds the lock: called right before
   * the alias swap and before pruning, the steps that must never run on another run's behalf.
   */
  async assertHeld(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.renew()) return;
      if (this.lostSignal.aborted) throw this.lostSignal.reason;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    throw new LockLostError(`could not confirm that this run still holds the indexer lock of "${this.setup.prefix}"`);
  }

  /** Stops renewing and deletes the lock if it is still ours (conditionally: never another run's). */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.chain;
    if (this.released) return;
    this.released = true;
    if (this.lostSignal.aborted) return;
    const { client, prefix, log } = this.setup;
    await client.delete({ index: lockIndexName(prefix), id: LOCK_ID, ...ifUnchanged(this.written) }).catch((error) => {
      // 409: someone took it over after our last renewal; 404: gone already. Neither is ours to delete.
      if (isStatus(error, 409) || isStatus(error, 404)) return;
      log.warn(
        { error: (error as Error).message },
        'could not release the indexer lock; it frees when its lease expires',
      );
    });
  }
}
