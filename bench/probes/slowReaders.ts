/**
 * Clients that ask large answers and read nothing (issue 48): how much memory they can make the API hold. The API
 * is a child process (its RSS alone is sampled) serving one route the way the app serves a boundary collection that
 * misses the body cache: the project's BodyCache and HeavyAnswers on Koa, configured from the environment as the
 * service is (loadConfig: the defaults unless set), behind the error envelope; each answer a FeatureCollection of
 * `--answer-mib` written page by page (src/geojson/streamCollection.ts), one per `simplify`, as a varied `simplify`
 * makes boundary answers distinct. No Elasticsearch: the child makes the pages (fresh memory each).
 *
 *   npx tsx bench/probes/slowReaders.ts [--clients 40] [--answer-mib 15] [--page-kib 512] [--seconds 15]
 *
 * Loopback only, at most `--clients` connections (at most 200), held `--seconds` (at most 120). Each client sends
 * its request and reads its first bytes only (the status line), then nothing. Prints the child's RSS every second
 * before the clients, while they hold their connections and after they have left, and the statuses they got.
 * Run it under the machine's heavy-work lock: the child builds `--clients` answers of `--answer-mib` at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { processMemory } from '../support/processMemory.js';

const SERVE = '--serve';

/** The child: the route, on an ephemeral loopback port it prints as `listening <port>`. */
async function serve(): Promise<void> {
  const { default: Koa } = await import('koa');
  const { loadConfig } = await import('../../src/config/service.js');
  const { BodyCache } = await import('../../src/http/bodyCache.js');
  const { ByteBudget } = await import('../../src/http/byteBudget.js');
  const { errorEnvelope } = await import('../../src/http/errors.js');
  const { HeavyAnswers } = await import('../../src/http/heavyAnswers.js');
  const { streamFeatureCollection } = await import('../../src/geojson/streamCollection.js');
  const answerBytes = Number(process.env.PROBE_ANSWER_BYTES);
  const pageBytes = Number(process.env.PROBE_PAGE_BYTES);
  const config = loadConfig({ ...process.env, NODE_ENV: 'development' });
  // As src/wiring/app.ts wires them.
  const inFlight = new ByteBudget(config.answersInFlightBytes);
  const bodies = new BodyCache(config.bodyCacheBytes, new HeavyAnswers(config.heavyAnswers, inFlight), inFlight);

  /** One answer's pages: one feature each, a fresh string of about `pageBytes` in its properties. */
  async function* pages(seed: number) {
    for (let written = 0, page = 0; written < answerBytes; written += pageBytes, page++) {
      // Elasticsearch's next page is a round trip away.
      await new Promise((resolve) => setImmediate(resolve));
      const name = Buffer.alloc(Math.min(pageBytes, answerBytes - written), 97 + ((seed + page) % 26)).toString(
        'latin1',
      );
      const geometry = { type: 'Point' as const, coordinates: [4.37, 52] };
      yield [{ type: 'Feature' as const, geometry, properties: { page, name } }];
    }
  }

  const app = new Koa();
  app.silent = true;
  app.on('error', () => {});
  app.use(errorEnvelope);
  app.use(async (ctx) => {
    const key = ctx.querystring;
    if (await bodies.serve(ctx, key)) return;
    await bodies.build(ctx, key, async () => {
      ctx.type = 'application/geo+json';
      ctx.body = streamFeatureCollection(pages(Number(ctx.query.simplify ?? 0)));
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const limits = {
    ...config.heavyAnswers,
    bodyCacheBytes: config.bodyCacheBytes,
    inFlight: config.answersInFlightBytes,
  };
  console.log(`config ${JSON.stringify(limits)}`);
  console.log(`listening ${port}`);
}

async function probe(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '40' },
      'answer-mib': { type: 'string', default: '15' },
      'page-kib': { type: 'string', default: '512' },
      seconds: { type: 'string', default: '15' },
    },
  });
  const clients = Math.min(200, Number(values.clients));
  const seconds = Math.min(120, Number(values.seconds));
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), SERVE], {
    env: {
      ...process.env,
      PROBE_ANSWER_BYTES: String(Number(values['answer-mib']) * 1024 * 1024),
      PROBE_PAGE_BYTES: String(Number(values['page-kib']) * 1024),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await portOf(child);
    const rss = () => rssMib(child.pid!);
    console.log(`${clients} clients, answers of ${values['answer-mib']} MiB in pages of ${values['page-kib']} KiB`);
    console.log('t (s)\tRSS (MiB)\tstatuses');
    await sleep(2000);
    const base = rss();
    console.log(`before\t${base}`);
    const statuses: Record<string, number> = {};
    const sockets = await Promise.all(Array.from({ length: clients }, (_, i) => stoppedReading(port, i, statuses)));
    let peak = base;
    for (let t = 1; t <= seconds; t++) {
      await sleep(1000);
      const now = rss();
      peak = Math.max(peak, now);
      console.log(`${t}\t${now}\t${JSON.stringify(statuses)}`);
    }
    const held = rss();
    for (const socket of sockets) socket.destroy();
    await sleep(3000);
    const after = rss();
    console.log(`after\t${after}`);
    console.log(
      `summary: before ${base} MiB, peak ${peak} MiB (+${peak - base}), at the end of the hold ${held} MiB ` +
        `(+${held - base}), 3 s after the clients left ${after} MiB; statuses ${JSON.stringify(statuses)}`,
    );
  } finally {
    child.kill();
  }
}

/** A client that asks its answer and reads its first bytes only (to tell its status), then nothing. */
async function stoppedReading(port: number, i: number, statuses: Record<string, number>): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.once('data', (chunk: Buffer) => {
    socket.pause();
    const status = /^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? '?';
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  socket.write(`GET /answer?simplify=${i + 1} HTTP/1.1\r\nHost: probe\r\n\r\n`);
  return socket;
}

async function portOf(child: ChildProcess): Promise<number> {
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('config ')) console.log(line);
      const port = /^listening (\d+)/.exec(line)?.[1];
      if (port) return Number(port);
    }
  }
  throw new Error(`the server exited before listening: ${out}`);
}

function rssMib(pid: number): number {
  return processMemory(pid)?.rssMb ?? NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv.includes(SERVE)) await serve();
else await probe();
