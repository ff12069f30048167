/**
 * The API as a separate production-mode process (src/main.ts under tsx), as the benchmark and the chaos script
 * drive it: its own event loop and CPU, measured from outside.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../dev/elasticsearch/localNode.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ApiProcessOptions {
  elasticsearchUrl: string;
  indexPrefix: string;
  apiKey: string;
  logLevel?: string;
  /** Extra `--import` modules (a memory probe) and environment. */
  imports?: string[];
  env?: NodeJS.ProcessEnv;
  /** Further Node.js options (`--cpu-prof`). */
  nodeOptions?: string[];
}

/** Polls `probe` until the server answers (any status); kills the child and throws after 60 s. */
export async function waitUntilUp(url: string, child: ChildProcess, probe = '/health'): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`${url}${probe}`);
      return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`${url} did not start`);
}

export async function startApiProcess(options: ApiProcessOptions): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const imports = ['tsx', ...(options.imports ?? [])].flatMap((module) => ['--import', module]);
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), ...imports, 'src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      ELASTICSEARCH_URL: options.elasticsearchUrl,
      INDEX_PREFIX: options.indexPrefix,
      API_KEYS: options.apiKey,
      LOG_LEVEL: options.logLevel ?? 'info',
      ...options.env,
    },
    // The request log is part of production cost: it is written, to a discarded stdout.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child);
  return { url, process: child };
}
