/**
 * `npm start`'s local Elasticsearch keeps its data in one directory across restarts, and Elasticsearch
 * allows one node per data directory ("failed to obtain node locks"). A second `npm start` on the same
 * machine (another checkout, or beside a benchmark) therefore reuses the node the first one started: the
 * owner writes a claim file beside the data directory (its pid, and the node's URL once ready); others
 * read it. A claim whose process is gone is stale and taken over.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fetchElasticsearchVersion } from './localNode.js';
import { type RunningElasticsearch, type StartOptions, startElasticsearch } from './provider.js';

interface Claim {
  pid: number;
  url?: string;
}

export interface SharedNodeOptions extends Omit<StartOptions, 'url' | 'dataDir'> {
  dataDir: string;
  /** How long to wait for another process's node that is still starting. */
  waitForOwnerMs?: number;
}

export interface SharedElasticsearch extends RunningElasticsearch {
  /** Started by another process (which stops it when it exits). */
  reused: boolean;
}

export function claimPath(dataDir: string): string {
  return `${dataDir}.owner.json`;
}

function readClaim(path: string): Claim | undefined {
  try {
    const claim = JSON.parse(readFileSync(path, 'utf8')) as Claim;
    return Number.isInteger(claim.pid) ? claim : undefined;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes the claim only if none exists (`wx`), so two starts at once cannot both own the directory. */
function tryClaim(path: string, claim: Claim): boolean {
  try {
    writeFileSync(path, JSON.stringify(claim), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function ownersNode(path: string, deadline: number): Promise<{ url: string; version: string } | undefined> {
  for (;;) {
    const claim = readClaim(path);
    if (!claim || !processAlive(claim.pid)) return undefined;
    if (claim.url) {
      try {
        return { url: claim.url, version: await fetchElasticsearchVersion(claim.url) };
      } catch {
        // Stopping or not answering: fall through to wait.
      }
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function startOrReuseLocalNode(options: SharedNodeOptions): Promise<SharedElasticsearch> {
  const log = options.log ?? (() => {});
  const path = claimPath(options.dataDir);
  const deadline = Date.now() + (options.waitForOwnerMs ?? 180_000);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryClaim(path, { pid: process.pid })) {
      try {
        const node = await startElasticsearch({ ...options, dataDir: options.dataDir });
        writeFileSync(path, JSON.stringify({ pid: process.pid, url: node.url } satisfies Claim));
        return {
          ...node,
          reused: false,
          stop: async () => {
            await node.stop();
            rmSync(path, { force: true });
          },
        };
      } catch (error) {
        rmSync(path, { force: true });
        throw error;
      }
    }
    const owner = readClaim(path);
    if (owner && processAlive(owner.pid)) {
      const running = await ownersNode(path, deadline);
      if (running) {
        log(`reusing the local Elasticsearch at ${running.url}, started by process ${owner.pid} (it stops with it)`);
        return { kind: 'local', ...running, reused: true, stop: async () => {} };
      }
      if (readClaim(path)?.pid === owner.pid && processAlive(owner.pid)) break;
    }
    // The owner is gone (crashed, killed). Its node may have outlived it (it runs in its own process
    // group): a node still answering holds the directory's lock, so use it rather than fail on the lock.
    const orphan = owner?.url ? await fetchElasticsearchVersion(owner.url).catch(() => undefined) : undefined;
    if (owner?.url && orphan) {
      log(`reusing the local Elasticsearch at ${owner.url}, left running by process ${owner.pid} which has exited`);
      return { kind: 'local', url: owner.url, version: orphan, reused: true, stop: async () => {} };
    }
    if (existsSync(path)) rmSync(path, { force: true });
  }
  // The owner is alive but its node never answered: do not touch its directory.
  log(`the local data directory ${options.dataDir} is held by a process whose node does not answer;`);
  log('starting a separate node with a temporary data directory (removed on exit)');
  return { ...(await startElasticsearch({ ...options, dataDir: undefined })), reused: false };
}
