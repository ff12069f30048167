/**
 * A second `npm start` on one machine reuses the local node of the first instead of dying on Elasticsearch's
 * data-directory lock. The claim files here point at the run's real node; no second node is started.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimPath, startOrReuseLocalNode } from '../../../../dev/elasticsearch/sharedNode.js';
import { testElasticsearchUrl } from '../../../support/elasticsearch.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shared-node-test-'));
  dirs.push(dir);
  return join(dir, 'data');
}
/** The pid of a process that has certainly exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a second npm start on one machine', () => {
  it('reuses the node a running process owns, says so, and never stops it', async () => {
    const dir = dataDir();
    const url = testElasticsearchUrl().split(',')[0] as string;
    writeFileSync(claimPath(dir), JSON.stringify({ pid: process.pid, url }));
    const lines: string[] = [];
    const node = await startOrReuseLocalNode({ dataDir: dir, log: (m) => lines.push(m) });
    expect(node).toMatchObject({ reused: true, url, kind: 'local' });
    expect(node.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(lines.join('\n')).toContain(`reusing the local Elasticsearch at ${url}, started by process ${process.pid}`);
    await node.stop();
    // The owner's claim is left alone: it still owns the node.
    expect(JSON.parse(readFileSync(claimPath(dir), 'utf8'))).toEqual({ pid: process.pid, url });
    const health = await fetch(`${url}/_cluster/health`);
    expect(health.status).toBe(200);
  });

  it('reuses a node whose owner has exited but which still answers (it holds the directory lock)', async () => {
    const dir = dataDir();
    const url = testElasticsearchUrl().split(',')[0] as string;
    const pid = deadPid();
    writeFileSync(claimPath(dir), JSON.stringify({ pid, url }));
    const lines: string[] = [];
    const node = await startOrReuseLocalNode({ dataDir: dir, log: (m) => lines.push(m) });
    expect(node).toMatchObject({ reused: true, url });
    expect(lines.join('\n')).toContain(`left running by process ${pid} which has exited`);
  });
});
