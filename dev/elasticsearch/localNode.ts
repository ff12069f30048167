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
import { type LauncherSettings, loadDevelopmentConfig } from '../../core/config/development.js';

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
  stop: () => Promise<void>;
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
  settings: Record<string, string | number | boolean | readonly string[]>,
  heap: string,
) {
  await mkdir(join(configDir, 'jvm.options.d'), { recursive: true });
  for (const file of ['jvm.options', 'log4j2.properties']) {
    await copyFile(join(home, 'config', file), join(configDir, file));
  }
  // JSON strings and arrays are valid YAML scalars and flow sequences.
  const yaml = Object.entries(settings)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'object' || typeof value === 'string' ? JSON.stringify(value) : value}`,
    )
    .join('\n');
  await writeFile(join(configDir, 'elasticsearch.yml'), `${yaml}\n`);
  await writeFile(join(configDir, 'jvm.options.d', 'heap.options'), `-Xms${heap}\n-Xmx${heap}\n`);
}

async function waitUntilReady(
  url: string,
  query: string,
  exited: () => string | undefined,
  timeoutMs: number,
  outputTail: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit !== undefined) throw new Error(`Elasticsearch exited with ${exit} during start-up:\n${outputTail()}`);
    try {
      const res = await fetch(`${url}/_cluster/health?${query}&timeout=1s`, { signal: AbortSignal.timeout(3000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Elasticsearch did not become ready within ${timeoutMs} ms:\n${outputTail()}`);
}

export async function fetchElasticsearchVersion(url: string): Promise<string> {
  // A multi-node ELASTICSEARCH_URL: ask the first node.
  const first = url.split(',')[0]?.trim() ?? url;
  const res = await fetch(`${first}/_nodes/_local?filter_path=nodes.*.version`, {
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.json()) as { nodes?: Record<string, { version?: string }> };
  return Object.values(body.nodes ?? {})[0]?.version ?? 'unknown';
}

/** One node of a local cluster: a process that can be stopped, killed, frozen and started again on its data. */
export interface ClusterNode {
  name: string;
  url: string;
  httpPort: number;
  transportPort: number;
  /** The process group leader while running. */
  readonly pid: number | undefined;
  readonly running: boolean;
  readonly frozen: boolean;
  /** (Re)starts on the same ports and data; resolves when the node answers and sees the whole cluster. */
  start(): Promise<void>;
  /** SIGTERM, then SIGKILL after 20 s; resolves when the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL to the process group (the CLI and the server JVM); resolves when it has exited. */
  kill(): Promise<void>;
  /** SIGSTOP: the process stays, its sockets stay open, nothing answers (a GC pause or a hung VM). */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
}

export interface LocalCluster {
  /** Every node's URL, comma-separated: what ELASTICSEARCH_URL takes. */
  url: string;
  urls: string[];
  nodes: ClusterNode[];
  version: string;
  javaHome: string;
  startupMs: number;
  /** Waits for the cluster (asked through any answering node) to reach a status; false on timeout. */
  waitForStatus(status: 'green' | 'yellow', timeoutMs: number): Promise<boolean>;
  /** Stops every node and removes the run directory. */
  stop: () => Promise<void>;
}

export interface LocalClusterOptions extends LocalNodeOptions {
  /** Nodes (default 1: a `discovery.type: single-node` node). */
  nodes?: number;
}

/**
 * Starts one or more nodes on loopback, each its own JVM, heap, ports and data directory, in one cluster.
 * Three or more nodes are all master-eligible (one may go without losing the quorum). Of two nodes only the
 * first is master-eligible (a two-node voting configuration holds one node anyway): stop the second one.
 * Resolves once every node has joined and the cluster is yellow or green. Always call stop().
 */
export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const log = options.log ?? (() => {});
  const count = options.nodes ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 9) throw new Error('nodes must be between 1 and 9');
  const started = Date.now();
  const settings: LauncherSettings = options.settings ?? loadDevelopmentConfig().launcher;
  const { version, jdk } = chooseDistribution(findJdks(settings.javaHomes), options.version ?? settings.version);
  const zip = resolveDistributionZip(version, settings.mavenRepository, log);
  const home = await unpackDistribution(zip, version, settings.installDir);
  const heap = options.heap ?? settings.heap ?? '512m';
  const account = process.getuid?.() === 0 ? ensureAccount(settings.runAsUser) : undefined;

  const runDir = await mkdtemp(join(tmpdir(), 'geocoder-es-run-'));
  const ports: { http: number; transport: number }[] = [];
  for (let i = 0; i < count; i++) ports.push({ http: await freePort(), transport: await freePort() });
  const names = ports.map((_, i) => (count === 1 ? 'local' : `node-${i}`));
  const masters = count === 1 ? [] : count === 2 ? [names[0] as string] : names;

  const nodes: NodeHandle[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[i] as string;
    const nodeDir = count === 1 ? runDir : join(runDir, name);
    const dataDir = count === 1 && options.dataDir ? options.dataDir : join(nodeDir, 'data');
    await mkdir(dataDir, { recursive: true });
    await mkdir(join(nodeDir, 'logs'), { recursive: true });
    await mkdir(join(nodeDir, 'tmp'), { recursive: true });
    const { http, transport } = ports[i] as { http: number; transport: number };
    const discovery: Record<string, string | readonly string[]> =
      count === 1
        ? { 'discovery.type': 'single-node' }
        : {
            'discovery.seed_hosts': ports.map((p) => `127.0.0.1:${p.transport}`),
            'cluster.initial_master_nodes': masters,
            'node.roles': masters.includes(name) ? ['master', 'data', 'ingest'] : ['data', 'ingest'],
          };
    await writeConfig(
      home,
      join(nodeDir, 'config'),
      {
        'cluster.name': count === 1 ? 'geocoder-local' : `geocoder-local-${process.pid}-${ports[0]?.http}`,
        'node.name': name,
        ...discovery,
        'network.host': '127.0.0.1',
        'http.port': http,
        'transport.port': transport,
        'path.data': dataDir,
        'path.logs': join(nodeDir, 'logs'),
        'xpack.security.enabled': false,
        // Shared CI disks can be nearly full; the watermark would otherwise make new indexes read-only.
        'cluster.routing.allocation.disk.threshold_enabled': false,
      },
      heap,
    );
    if (account) {
      await chownTree(nodeDir, account);
      if (dataDir !== join(nodeDir, 'data')) await chownTree(dataDir, account);
    }
    nodes.push(
      new NodeHandle({
        name,
        nodeDir,
        home,
        javaHome: jdk.home,
        account,
        httpPort: http,
        transportPort: transport,
        count,
        log,
      }),
    );
  }
  if (account) await chmod(runDir, 0o755);

  const stopAll = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await rm(runDir, { recursive: true, force: true });
  };
  log(
    `starting ${count === 1 ? 'Elasticsearch' : `a ${count}-node cluster of Elasticsearch`} ${version} with Java ${jdk.major} (${jdk.home}) on ${nodes.map((n) => `127.0.0.1:${n.httpPort}`).join(', ')}`,
  );
  try {
    await Promise.all(nodes.map((n) => n.start(options.startupTimeoutMs ?? 180_000)));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const urls = nodes.map((n) => n.url);
  const startupMs = Date.now() - started;
  log(`Elasticsearch ${version} ready at ${urls.join(',')} after ${startupMs} ms`);
  return {
    url: urls.join(','),
    urls,
    nodes,
    version: await fetchElasticsearchVersion(urls[0] as string),
    javaHome: jdk.home,
    startupMs,
    waitForStatus: (status, timeoutMs) => waitForClusterStatus(nodes, status, timeoutMs),
    stop: stopAll,
  };
}

async function waitForClusterStatus(nodes: ClusterNode[], status: 'green' | 'yellow', timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const node of nodes) {
      if (!node.running || node.frozen) continue;
      try {
        const res = await fetch(`${node.url}/_cluster/health?wait_for_status=${status}&timeout=2s`, {
          signal: AbortSignal.timeout(4000),
        });
        if (res.ok) return true;
      } catch {
        // try the next node
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

class NodeHandle implements ClusterNode {
  readonly name: string;
  readonly url: string;
  readonly httpPort: number;
  readonly transportPort: number;
  private child: ChildProcess | undefined;
  private exit: string | undefined;
  private isFrozen = false;
  private readonly tail: string[] = [];
  private readonly onExit = () => this.signal('SIGKILL');

  constructor(
    private readonly spec: {
      name: string;
      nodeDir: string;
      home: string;
      javaHome: string;
      account: Account | undefined;
      httpPort: number;
      transportPort: number;
      count: number;
      log: (m: string) => void;
    },
  ) {
    this.name = spec.name;
    this.httpPort = spec.httpPort;
    this.transportPort = spec.transportPort;
    this.url = `http://127.0.0.1:${spec.httpPort}`;
  }

  get pid() {
    return this.running ? this.child?.pid : undefined;
  }

  get running() {
    return this.child !== undefined && this.exit === undefined;
  }

  get frozen() {
    return this.running && this.isFrozen;
  }

  async start(timeoutMs = 180_000): Promise<void> {
    if (this.running) return;
    const { nodeDir, home, javaHome, account } = this.spec;
    const command = join(home, 'bin', 'elasticsearch');
    const argv = account
      ? ['setpriv', `--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', command]
      : [command];
    const output = createWriteStream(join(nodeDir, 'console.log'), { flags: 'a' });
    const child = spawn(argv[0] as string, argv.slice(1), {
      env: {
        PATH: process.env.PATH,
        HOME: nodeDir,
        ES_JAVA_HOME: javaHome,
        ES_PATH_CONF: join(nodeDir, 'config'),
        ES_TMPDIR: join(nodeDir, 'tmp'),
        LANG: 'C.UTF-8',
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exit = undefined;
    this.isFrozen = false;
    this.tail.length = 0;
    const remember = (chunk: Buffer) => {
      output.write(chunk);
      this.tail.push(chunk.toString('utf8'));
      if (this.tail.length > 40) this.tail.shift();
    };
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    child.once('exit', (code, signal) => {
      this.exit = String(code ?? signal ?? -1);
      output.end();
      process.off('exit', this.onExit);
    });
    // A crashed or interrupted parent must not leave a JVM behind.
    process.on('exit', this.onExit);
    // The node answers and sees every node of the cluster (a restarted node has rejoined).
    const query = this.spec.count === 1 ? 'wait_for_status=yellow' : `wait_for_nodes=${this.spec.count}`;
    try {
      await waitUntilReady(
        this.url,
        query,
        () => this.exit,
        timeoutMs,
        () => this.tail.join(''),
      );
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  private signal(signal: NodeJS.Signals) {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  private async exited(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (this.isFrozen && signal !== 'SIGKILL') this.thaw();
    this.signal(signal);
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await done;
    clearTimeout(timer);
    this.isFrozen = false;
  }

  stop(): Promise<void> {
    return this.exited('SIGTERM', 20_000);
  }

  kill(): Promise<void> {
    return this.exited('SIGKILL', 0);
  }

  freeze(): void {
    if (!this.running) return;
    this.signal('SIGSTOP');
    this.isFrozen = true;
  }

  thaw(): void {
    if (!this.running) return;
    this.signal('SIGCONT');
    this.isFrozen = false;
  }
}

/** Starts a node; resolves once the cluster is yellow or green. Always call stop() (tests, start-up failures). */
export async function startLocalNode(options: LocalNodeOptions = {}): Promise<LocalNode> {
  const cluster = await startLocalCluster({ ...options, nodes: 1 });
  return {
    url: cluster.url,
    version: cluster.version,
    javaHome: cluster.javaHome,
    startupMs: cluster.startupMs,
    stop: cluster.stop,
  };
}
