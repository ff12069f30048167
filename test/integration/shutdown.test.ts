/**
 * Deploys without dropped requests: the real service process (src/main.ts) on SIGTERM answers what it has
 * accepted, with its Elasticsearch (behind a slow relay) still open, then exits; readiness turns 503 at once; and
 * SIGHUP without a key file does not end it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '../../dev/elasticsearch/localNode.js';
import { ServiceState } from '../../src/http/serviceState.js';
import { Readiness } from '../../src/schemas/responses.js';
import { startTestApi } from '../support/api.js';
import { testElasticsearchUrl } from '../support/elasticsearch.js';
import { Relay } from '../support/relay.js';

const KEY = 'shutdown-test-key-0123';

interface Service {
  child: ChildProcess;
  url: string;
  log: string[];
}

/** The production entry under tsx on a free port; resolves once it logs that it listens. */
async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      INDEX_PREFIX: inject('samplePrefix'),
      API_KEYS: KEY,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  let buffered = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        log.push(line);
        const listening = /"url":"(http:\/\/localhost:\d+)"/.exec(line);
        if (listening) resolve(listening[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${log.join('\n')}`)));
  });
  return { child, url, log };
}

const started: Service[] = [];
afterEach(() => {
  for (const service of started.splice(0)) service.child.kill('SIGKILL');
});

describe('graceful shutdown', () => {
  let relay: Relay;
  afterAll(() => relay?.close());

  it('answers the requests in flight on SIGTERM, with Elasticsearch still open, then exits 0', async () => {
    relay = new Relay(new URL(testElasticsearchUrl()));
    // Every new connection to Elasticsearch waits 1.5 s: the request below is still in flight at SIGTERM.
    relay.delayMs = 1500;
    await relay.open();
    // Stall detection off: the relay holds every answer 1.5 s on purpose, longer than the default stall window.
    const service = await startService({
      ELASTICSEARCH_URL: relay.url,
      SHUTDOWN_GRACE_MS: '30000',
      BREAKER_STALL_MS: '0',
    });
    started.push(service);
    const inFlight = fetch(`${service.url}/geocode/forward`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ streetname: 'Mekelweg', number: '8' }),
    });
    // The search has reached Elasticsearch's relay: the request is being worked on.
    while (relay.accepted === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    service.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    await expect(fetch(`${service.url}/health/live`)).rejects.toThrow();
  });

  it('answers a request sent on a kept-alive connection just after SIGTERM, asking the client to close', async () => {
    const service = await startService({ ELASTICSEARCH_URL: testElasticsearchUrl() });
    started.push(service);
    // fetch keeps this connection open for the next request.
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
    service.child.kill('SIGTERM');
    while (!service.log.some((line) => line.includes('shutting down'))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The drain has begun: the idle connection is still open and the port still answers for a moment, so this
    // request is served (not reset) and told to close its connection.
    const answer = await fetch(`${service.url}/health/live`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
  });

  it('shares its port with another process under REUSE_PORT: one drains and exits, the other answers', async () => {
    const port = await freePort();
    const env = { ELASTICSEARCH_URL: testElasticsearchUrl(), PORT: String(port), REUSE_PORT: 'true' };
    const first = await startService(env);
    started.push(first);
    // Without SO_REUSEPORT this one could not listen (EADDRINUSE) and would exit.
    const second = await startService(env);
    started.push(second);
    first.child.kill('SIGTERM');
    const [code] = await once(first.child, 'exit');
    expect(code).toBe(0);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await fetch(`${second.url}/health/live`)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it('listens with a deep queue (LISTEN_BACKLOG, 4096 by default, as deep as the kernel allows)', async () => {
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    for (const [backlog, expected] of [
      [undefined, Math.min(4096, somaxconn)],
      ['100', 100],
    ] as const) {
      const port = await freePort();
      const env = {
        ELASTICSEARCH_URL: testElasticsearchUrl(),
        PORT: String(port),
        ...(backlog && { LISTEN_BACKLOG: backlog }),
      };
      const service = await startService(env);
      started.push(service);
      // ss shows a listening socket's queue size as its Send-Q.
      const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
      expect(Number(line.split(/\s+/)[2])).toBe(expected);
    }
  });

  it('ignores SIGHUP without a key file, with a log line', async () => {
    const service = await startService({ ELASTICSEARCH_URL: testElasticsearchUrl() });
    started.push(service);
    service.child.kill('SIGHUP');
    while (!service.log.some((line) => line.includes('SIGHUP ignored'))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
  });
});

describe('readiness while draining', () => {
  it('answers 503 draining from the moment the drain starts, while liveness stays 200', async () => {
    const state = new ServiceState();
    const api = await startTestApi({ state });
    try {
      expect((await api.call('GET', '/health/ready')).status).toBe(200);
      state.startDraining();
      const ready = await api.call('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(Readiness.parse(ready.body).status).toBe('draining');
      expect((await api.call('GET', '/health')).status).toBe(503);
      expect((await api.call('GET', '/health/live')).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
