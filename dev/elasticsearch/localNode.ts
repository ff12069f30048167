/**
 * Runs a real single-node Elasticsearch as a local process, for machines without a Docker engine.
 *
 * The distribution is Elastic's `integ-test-zip` from Maven Central (server + transport, no geo_shape,
 * no analysis-common), resolved with Maven so it is cached in the local Maven repository.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LauncherSettings, loadDevelopmentConfig } from '../../src/config/development.js';

export interface Jdk {
  home: string;
  major: number;
}

/** Newest first. 9.x needs Java 21+; 8.19 runs on Java 17. */
export const DISTRIBUTIONS: readonly { version: string; minJava: number }[] = [
  { version: '9.5.0', minJava: 21 },
  { version: '8.19.0', minJava: 17 },
];

export interface LocalNodeOptions {
  /** Force a version instead of the newest the installed JDKs can run. */
  version?: string;
  /** JVM heap, e.g. "512m" or "1g". */
  heap?: string;
  /** Keep data here across restarts; by default data lives in a temporary directory removed on stop. */
  dataDir?: string;
  /** JDKs, caches and the account to run as; from the environment (src/config/development.ts) when omitted. */
  settings?: LauncherSettings;
  startupTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface LocalNode {
  url: string;
  version: string;
  javaHome: string;
  startupMs: number;
  stop(): Promise<void>;
}

const ARTIFACT_GROUP_PATH = 'org/elasticsearch/distribution/integ-test-zip/elasticsearch';

/** @param preferred ES_JAVA_HOME and JAVA_HOME, looked at before /usr/lib/jvm. */
export function findJdks(preferred: readonly string[] = []): Jdk[] {
  const homes = new Set<string>(preferred);
  if (existsSync('/usr/lib/jvm')) {
    for (const entry of readdirSync('/usr/lib/jvm')) homes.add(join('/usr/lib/jvm', entry));
  }
  const seen = new Set<string>();
  const jdks: Jdk[] = [];
  for (const home of homes) {
    if (!existsSync(join(home, 'bin', 'java'))) continue;
    const real = realpathSync(home);
    if (seen.has(real)) continue;
    seen.add(real);
    const major = javaMajorVersion(real);
    if (major) jdks.push({ home: real, major });
  }
  return jdks.sort((a, b) => b.major - a.major);
}

function javaMajorVersion(home: string): number | undefined {
  const releaseFile = join(home, 'release');
  let version: string | undefined;
  if (existsSync(releaseFile)) {
    version = /JAVA_VERSION="([^"]+)"/.exec(readFileSync(releaseFile, 'utf8'))?.[1];
  }
  if (!version) {
    const out = spawnSync(join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' });
    version = /version "([^"]+)"/.exec(`${out.stderr}${out.stdout}`)?.[1];
  }
  if (!version) return undefined;
  const parts = version.split('.');
  const first = Number(parts[0]);
  return first === 1 ? Number(parts[1]) : first;
}

/** The newest distribution some installed JDK can run, with the newest such JDK. */
export function chooseDistribution(jdks: Jdk[], forcedVersion?: string): { version: string; jdk: Jdk } {
  const candidates = forcedVersion
    ? [{ version: forcedVersion, minJava: forcedVersion.startsWith('8.') ? 17 : 21 }]
    : DISTRIBUTIONS;
  for (const dist of candidates) {
    const jdk = jdks.find((j) => j.major >= dist.minJava);
    if (jdk) return { version: dist.version, jdk };
  }
  const found = jdks.map((j) => `${j.home} (${j.major})`).join(', ') || 'none';
  throw new Error(`No installed JDK can run Elasticsearch (need Java 17+ for 8.19, 21+ for 9.x); found: ${found}`);
}

/** Resolves the zip through Maven so the download is cached in the local Maven repository. */
export function resolveDistributionZip(version: string, repo: string, log: (m: string) => void): string {
  const zip = join(repo, ARTIFACT_GROUP_PATH, version, `elasticsearch-${version}.zip`);
  if (existsSync(zip)) return zip;
  log(`downloading org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version} with Maven`);
  const result = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:get',
      `-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`,
      '-Dtransitive=false',
      `-Dmaven.repo.local=${repo}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.error || !existsSync(zip)) {
    const detail = result.error?.message ?? `${result.stdout}${result.stderr}`.slice(-2000);
    throw new Error(`Could not resolve Elasticsearch ${version} from Maven: ${detail}`);
  }
  return zip;
}

/** Unpacks once into a world-readable cache (the node may run as another user than the repo's owner). */
async function unpackDistribution(zip: string, version: string, root: string): Promise<string> {
  const home = join(root, `elasticsearch-${version}`);
  if (existsSync(join(home, 'bin', 'elasticsearch'))) return home;
  await mkdir(root, { recursive: true });
  const staging = await mkdtemp(join(root, 'unpack-'));
  const result = spawnSync('unzip', ['-q', zip, '-d', staging], { encoding: 'utf8' });
  if (result.status !== 0) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`unzip failed (is the unzip package installed?): ${result.error?.message ?? result.stderr}`);
  }
  // Concurrent first runs race here; a rename either wins or finds the other's finished copy.
  try {
    await rename(join(staging, `elasticsearch-${version}`), home);
  } catch (error) {
    if (!existsSync(join(home, 'bin', 'elasticsearch'))) throw error;
  }
  await rm(staging, { recursive: true, force: true });
  spawnSync('chmod', ['-R', 'a+rX', root]);
  return home;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface Account {
  uid: number;
  gid: number;
}

function ensureAccount(name: string): Account {
  const lookup = () => spawnSync('id', ['-u', name], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    const created = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], {
      encoding: 'utf8',
    });
    if (created.status !== 0 && lookup().status !== 0) {
      throw new Error(
        `Elasticsearch refuses to run as root and user "${name}" could not be created: ${created.stderr}`,
      );
    }
  }
  const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
  return { uid, gid };
}

async function chownTree(path: string, account: Account): Promise<void> {
  await chown(path, account.uid, account.gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(child, account);
    else await chown(child, account.uid, account.gid);
  }
}

async function writeConfig(
  home: string,
  configDir: string,
  settings: Record<string, string | number | boolean>,
  heap: string,
) {
  await mkdir(join(configDir, 'jvm.options.d'), { recursive: true });
  for (const file of ['jvm.options', 'log4j2.properties']) {
    await copyFile(join(home, 'config', file), join(configDir, file));
  }
  const yaml = Object.entries(settings)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : value}`)
    .join('\n');
  await writeFile(join(configDir, 'elasticsearch.yml'), `${yaml}\n`);
  await writeFile(join(configDir, 'jvm.options.d', 'heap.options'), `-Xms${heap}\n-Xmx${heap}\n`);
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number, outputTail: () => string) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`Elasticsearch exited with ${exited} during start-up:\n${outputTail()}`);
    try {
      const res = await fetch(`${url}/_cluster/health?wait_for_status=yellow&timeout=1s`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Elasticsearch did not become ready within ${timeoutMs} ms:\n${outputTail()}`);
}

export async function fetchElasticsearchVersion(url: string): Promise<string> {
  const res = await fetch(`${url}/_nodes/_local?filter_path=nodes.*.version`, {
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.json()) as { nodes?: Record<string, { version?: string }> };
  return Object.values(body.nodes ?? {})[0]?.version ?? 'unknown';
}

/** Starts a node; resolves once the cluster is yellow or green. Always call stop() (tests, start-up failures). */
export async function startLocalNode(options: LocalNodeOptions = {}): Promise<LocalNode> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const settings: LauncherSettings = options.settings ?? loadDevelopmentConfig().launcher;
  const { version, jdk } = chooseDistribution(findJdks(settings.javaHomes), options.version ?? settings.version);
  const zip = resolveDistributionZip(version, settings.mavenRepository, log);
  const home = await unpackDistribution(zip, version, settings.installDir);

  const runDir = await mkdtemp(join(tmpdir(), 'geocoder-es-run-'));
  const configDir = join(runDir, 'config');
  const dataDir = options.dataDir ?? join(runDir, 'data');
  const logsDir = join(runDir, 'logs');
  await mkdir(dataDir, { recursive: true });
  await mkdir(logsDir, { recursive: true });
  const [httpPort, transportPort] = [await freePort(), await freePort()];
  await writeConfig(
    home,
    configDir,
    {
      'cluster.name': 'geocoder-local',
      'node.name': 'local',
      'discovery.type': 'single-node',
      'network.host': '127.0.0.1',
      'http.port': httpPort,
      'transport.port': transportPort,
      'path.data': dataDir,
      'path.logs': logsDir,
      'xpack.security.enabled': false,
      // Shared CI disks can be nearly full; the watermark would otherwise make new indexes read-only.
      'cluster.routing.allocation.disk.threshold_enabled': false,
    },
    options.heap ?? settings.heap ?? '512m',
  );

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: runDir,
    ES_JAVA_HOME: jdk.home,
    ES_PATH_CONF: configDir,
    ES_TMPDIR: join(runDir, 'tmp'),
    LANG: 'C.UTF-8',
  };
  await mkdir(join(runDir, 'tmp'), { recursive: true });
  const command = join(home, 'bin', 'elasticsearch');
  let argv = [command];
  if (process.getuid?.() === 0) {
    const account = ensureAccount(settings.runAsUser);
    await chownTree(runDir, account);
    if (options.dataDir) await chownTree(dataDir, account);
    await chmod(runDir, 0o755);
    argv = ['setpriv', `--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', command];
  }
  log(`starting Elasticsearch ${version} with Java ${jdk.major} (${jdk.home}) on 127.0.0.1:${httpPort}`);

  const outputFile = createWriteStream(join(runDir, 'console.log'));
  const tail: string[] = [];
  const child = spawn(argv[0] as string, argv.slice(1), {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const remember = (chunk: Buffer) => {
    outputFile.write(chunk);
    tail.push(chunk.toString('utf8'));
    if (tail.length > 40) tail.shift();
  };
  child.stdout?.on('data', remember);
  child.stderr?.on('data', remember);

  let stopped = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // A crashed or interrupted parent must not leave a JVM behind.
  const onExit = () => killGroup('SIGKILL');
  process.on('exit', onExit);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    outputFile.end();
    await rm(runDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${httpPort}`;
  try {
    await waitUntilReady(url, child, options.startupTimeoutMs ?? 180_000, () => tail.join(''));
  } catch (error) {
    await stop();
    throw error;
  }
  const startupMs = Date.now() - started;
  log(`Elasticsearch ${version} ready at ${url} after ${startupMs} ms`);
  return { url, version: await fetchElasticsearchVersion(url), javaHome: jdk.home, startupMs, stop };
}
