/**
 * The API as a separate production-mode process (src/main.ts under tsx), as the benchmark and the chaos script
 * drive it: its own event loop and CPU, measured from outside.
 */
import { openSync } from 'node:fs';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { freePort } from '../../dev/elasticsearch/localNode.js';
import { REPO_ROOT } from './defaults.js';

export interface ApiProcessOptions {
  elasticsearchUrl: string;
  indexPrefix: string;
  apiKey: string;
  logLevel?: string;
  /**
   * A fixed port (shared with other API processes under REUSE_PORT=true): the process is up once it listens on it
   * itself, as `ss` tells (a request could be answered by another process on the port).
   */
  port?: number;
  /** Extra `--import` modules (a memory probe) and environment. */
  imports?: string[];
  env?: NodeJS.ProcessEnv;
  /** Further Node.js options (`--cpu-prof`). */
  nodeOptions?: string[];
  /** Another checkout of the repository to run (an A/B comparison against an older commit); default this one. */
  root?: string;
  /** Run the compiled `dist/src/main.js` with plain node, as production does (`npm run build` first), not tsx. */
  compiled?: boolean;
  /** Write the request log (stdout) to this file instead of discarding it. */
  logFile?: string;
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

/** Whether process `pid` has a listening TCP socket on `port` (from `ss`, which names the owning processes). */
function listensOn(pid: number, port: number): boolean {
  const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  return out.includes(`pid=${pid},`);
}

async function waitUntilListening(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} before listening`);
    if (child.pid !== undefined && listensOn(child.pid, port)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error(`the API did not listen on ${port} within 60 s`);
}

export async function startApiProcess(options: ApiProcessOptions): Promise<{ url: string; process: ChildProcess }> {
  const port = options.port ?? (await freePort());
  const imports = [...(options.compiled ? [] : ['tsx']), ...(options.imports ?? [])].flatMap((module) => [
    '--import',
    module,
  ]);
  const entry = options.compiled ? 'dist/src/main.js' : 'src/main.ts';
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), ...imports, entry], {
    cwd: options.root ?? REPO_ROOT,
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
    stdio: ['ignore', options.logFile ? openSync(options.logFile, 'w') : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  if (options.port === undefined) await waitUntilUp(url, child);
  else await waitUntilListening(port, child);
  return { url, process: child };
}
