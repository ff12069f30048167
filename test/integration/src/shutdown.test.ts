/**
 * Deploys without dropped requests: the real service process (src/main.ts) on SIGTERM answers what it has
 * accepted, with its Elasticsearch (behind a relay that holds the search) still open, then exits; readiness turns 503
 * at once; and SIGHUP without a key file does not end it. Every step waits for what the one before it caused (a log
 * line, a request held at the relay, an answer on a connection the test holds), never for a while.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { EventEmitter, once } from 'node:events';
import { Agent, get as httpGet } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '../../../dev/elasticsearch/localNode.js';
import { ServiceState } from '../../../src/http/serviceState.js';
import { Readiness } from '../../../src/schemas/responses.js';
import { startTestApi } from '../../support/api.js';
import { testElasticsearchUrl } from '../../support/elasticsearch.js';
import { Relay } from '../../support/relay.js';

const KEY = 'shutdown-test-key-0123';

interface Service {
  child: ChildProcess;
  url: string;
  log: string[];
  /** Resolves once the service has logged a line containing `text` (at once if it has already). */
  logged(text: string): Promise<void>;
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
  const lines = new EventEmitter();
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) {
      log.push(line);
      lines.emit('line', line);
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${log.join('\n')}`))),
  );
  // Only awaited through the promises below: an exit nobody waits for is no failure.
  exited.catch(() => {});
  const logged = (text: string) =>
    log.some((line) => line.includes(text))
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => {
            const seen = (line: string) => {
              if (!line.includes(text)) return;
              lines.off('line', seen);
              resolve();
            };
            lines.on('line', seen);
          }),
          exited,
        ]);
  await logged('geocoder listening');
  const listening = log.map((line) => /"url":"(http:\/\/localhost:\d+)"/.exec(line)).find(Boolean)!;
  return { child, url: listening[1]!.replace('localhost', '127.0.0.1'), log, logged };
}

/** GET on `agent`: the answer's status, its Connection header, the socket it came on and whether that was reused. */
function getOn(agent: Agent, url: string) {
  return new Promise<{ status: number; connection: string | undefined; socket: Socket; reused: boolean }>(
    (resolve, reject) => {
      const request = httpGet(url, { agent }, (response) => {
        const socket = request.socket!;
        response.resume();
        response.once('end', () =>
          resolve({
            status: response.statusCode!,
            connection: response.headers.connection,
            socket,
            reused: request.reusedSocket,
          }),
        );
      });
      request.once('error', reject);
    },
  );
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
    await relay.open();
    // Stall detection off and a search timeout and grace far beyond the test's steps: the relay holds the search
    // for as long as the test takes, which on a loaded machine may be seconds.
    const service = await startService({
      ELASTICSEARCH_URL: relay.url,
      SHUTDOWN_GRACE_MS: '600000',
      ES_REQUEST_TIMEOUT_MS: '600000',
      BREAKER_STALL_MS: '0',
    });
    started.push(service);
    const search = relay.hold(/^POST \/[^ ]*_m?search/);
    const inFlight = fetch(`${service.url}/geocode/forward`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ streetname: 'Mekelweg', number: '8' }),
    });
    // The search has reached Elasticsearch's relay, which holds it: the request is being worked on.
    await search.held;
    service.child.kill('SIGTERM');
    await service.logged('shutting down');
    // Draining (the line is logged in the same turn the drain starts): only now may the search go on.
    search.release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    await expect(fetch(`${service.url}/health/live`)).rejects.toThrow();
  });

  it('answers a request sent on a kept-alive connection just after SIGTERM, asking the client to close', async () => {
    // The notice (how long idle keep-alive connections stay open once draining) far beyond the test's steps: the
    // second request below is sent whenever the test gets to it, which on a loaded machine may be seconds.
    const service = await startService({
      ELASTICSEARCH_URL: testElasticsearchUrl(),
      SHUTDOWN_GRACE_MS: '2400000',
      SHUTDOWN_NOTICE_MS: '600000',
    });
    started.push(service);
    // One connection, held open between requests.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getOn(agent, `${service.url}/health/live`);
      expect(first).toMatchObject({ status: 200, reused: false });
      expect(first.connection).not.toBe('close');
      const again = await getOn(agent, `${service.url}/health/live`);
      expect(again.reused && again.socket === first.socket).toBe(true);

      service.child.kill('SIGTERM');
      await service.logged('shutting down');
      // The drain has begun and the port accepts nothing more; the idle connection is still open, so this request
      // goes on it, is served (not reset) and is told to close the connection.
      const answer = await getOn(agent, `${service.url}/health/live`);
      expect(answer.reused && answer.socket === first.socket).toBe(true);
      expect(answer).toMatchObject({ status: 200, connection: 'close' });
      const [code] = await once(service.child, 'exit');
      expect(code).toBe(0);
    } finally {
      agent.destroy();
    }
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
    await service.logged('SIGHUP ignored');
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
