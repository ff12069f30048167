/**
 * The floor of any Node.js hop between a client and Elasticsearch on this machine: `node:http` in, one undici
 * keep-alive pool out, no framework, validation, logging or batching. It forwards every request's path
 * and body untouched and returns Elasticsearch's answer untouched. The benchmark runs the same
 * Elasticsearch bodies through it that it fires straight at Elasticsearch, so the difference is the cost
 * of the hop itself, which no amount of work on the API can remove.
 *
 * Run as a child process: PORT and ELASTICSEARCH_URL from the environment.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const port = Number(process.env.PORT);
const pool = new Pool(process.env.ELASTICSEARCH_URL!, { connections: 64, pipelining: 1 });

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    pool
      .request({
        method: 'POST',
        path: req.url!,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
      .then(async (upstream) => {
        const body = Buffer.from(await upstream.body.arrayBuffer());
        res.writeHead(upstream.statusCode, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502).end();
      });
  });
}).listen(port, '127.0.0.1');

// An orderly exit, so that `--cpu-prof` writes its profile (a plain SIGTERM would end the process without it).
process.on('SIGTERM', () => process.exit(0));
