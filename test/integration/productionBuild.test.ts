/**
 * The production build: `npm run build` compiles src/ and indexer/ to dist/, and the compiled service
 * (`npm run start:prod`, what the Docker image runs: node, no tsx) answers against the real Elasticsearch.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const KEY = 'prod-key-0123456789';
let server: ChildProcess | undefined;
let url = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ELASTICSEARCH_URL: inject('elasticsearchUrl'),
      INDEX_PREFIX: inject('samplePrefix'),
      API_KEYS: KEY,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the built service did not start');
}, 180_000);

afterAll(() => {
  server?.kill('SIGTERM');
});

describe('the compiled service', () => {
  it('serves the API from dist/ with node alone', async () => {
    const res = await fetch(`${url}/geocode/forward`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ streetname: 'Mekelweg', number: '8' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ streetname: 'Mekelweg', number: '8', city: 'Delft' });
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it('refuses to start in production without keys, with a message naming the variable', () => {
    const run = spawnSync(process.execPath, ['dist/src/main.js'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ELASTICSEARCH_URL: inject('elasticsearchUrl') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/API_KEYS/);
  });
});
