/**
 * The production build: `npm run build` compiles src/ and indexer/ to dist/, and the compiled service
 * (`npm run start:prod`, what the Docker image runs: node, no tsx) answers against the real Elasticsearch.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const KEY = 'prod-key-0123456789';
let server: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  // PORT 0: the kernel's free port, which the service logs once it listens (a port found free beforehand could be
  // taken by then).
  server = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      ELASTICSEARCH_URL: inject('elasticsearchUrl'),
      INDEX_PREFIX: inject('samplePrefix'),
      API_KEYS: KEY,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  // Read to the end (an unread pipe would stall the service once full); started once it says it listens.
  url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    server!.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (log.length < 50) log.push(line);
        const listening = /"url":"http:\/\/localhost:(\d+)"/.exec(line);
        if (listening) resolve(`http://127.0.0.1:${listening[1]}`);
      }
    });
    server!.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    server!.once('exit', (code) => reject(new Error(`the built service exited with ${code}: ${log.join('\n')}`)));
  });
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

  it('serves /openapi.json and the /docs page with every asset it loads, without a key', async () => {
    const document = await fetch(`${url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    const page = await fetch(`${url}/docs/`);
    expect(page.status).toBe(200);
    const assets = [...(await page.text()).matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toContain('swagger-ui-bundle.js');
    for (const asset of assets) expect((await fetch(new URL(asset, `${url}/docs/`))).status, asset).toBe(200);
  });

  it('serves the /map page, every module it imports and MapLibre from dist/ and node_modules, without a key', async () => {
    const page = await fetch(`${url}/map/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const linked = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((a) => !a.startsWith('data:'));
    expect(linked).toEqual(expect.arrayContaining(['vendor/maplibre/maplibre-gl.css', 'main.js']));
    // The modules import one another (and MapLibre's module): follow every `from './x.js'` so none is missing from
    // the build. MapLibre starts its worker from the file beside its own; the page reads its configuration.
    const pending = [...linked, 'vendor/maplibre/maplibre-gl-worker.mjs', 'config.json'];
    const seen = new Set<string>();
    for (let asset = pending.pop(); asset !== undefined; asset = pending.pop()) {
      if (seen.has(asset)) continue;
      seen.add(asset);
      const res = await fetch(new URL(asset, `${url}/map/`));
      expect(res.status, asset).toBe(200);
      if (asset.endsWith('.js') && !asset.startsWith('vendor/')) {
        for (const m of (await res.text()).matchAll(/from '\.\/([\w./-]+\.m?js)'/g)) pending.push(m[1]!);
      }
      // A worker's policy is the one its script came with: MapLibre's must be allowed to fetch the tiles.
      if (asset.endsWith('worker.mjs'))
        expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    }
    expect(seen).toContain('vendor/maplibre/maplibre-gl.mjs');
    expect(seen.size).toBeGreaterThan(10);
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
