/**
 * A relay in front of Elasticsearch that answers every search it has seen once from memory: with it between a hop
 * (the API, the bare hop) and Elasticsearch, the hop's CPU per request is measured without Elasticsearch's CPU and
 * latency moving it (on a shared 2-core box those swing more than the hop's own cost). `_search` answers are kept
 * by path and body; an `_msearch` is split into its searches, each kept on its own (by index and body), so a batch
 * whose searches have all been seen is answered from memory whatever else they were batched with. Anything else
 * (alias and index lookups, aggregations the API loads once) is forwarded untouched.
 *
 * Run as a child process: PORT and ELASTICSEARCH_URL from the environment. Read-only towards Elasticsearch.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'undici';

const port = Number(process.env.PORT);
const pool = new Pool(process.env.ELASTICSEARCH_URL!, { connections: 32, pipelining: 1 });
const searches = new Map<string, Buffer>();
const msearchItems = new Map<string, string>();
const JSON_HEADERS = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };

async function forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; body: Buffer }> {
  const upstream = await pool.request({
    method: req.method as 'GET',
    path: req.url!,
    // The client's compatibility media types must reach Elasticsearch on both headers, or it refuses the request.
    headers: {
      'content-type': req.headers['content-type'] ?? 'application/json',
      accept: req.headers.accept ?? 'application/json',
    },
    body: body.length > 0 ? body : null,
  });
  return { status: upstream.statusCode, body: Buffer.from(await upstream.body.arrayBuffer()) };
}

function send(res: ServerResponse, status: number, body: Buffer | string): void {
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The `_msearch` pairs (header line, body line) of an NDJSON body, each as its memo key. */
function msearchKeys(path: string, text: string): string[] {
  const lines = text.split('\n').filter((line) => line.length > 0);
  const keys: string[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) keys.push(`${path}\n${lines[i]}\n${lines[i + 1]}`);
  return keys;
}

async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const path = req.url!.split('?')[0]!;
  if (req.method === 'POST' && path.endsWith('/_search')) {
    const key = `${req.url}\n${body.toString()}`;
    const kept = searches.get(key);
    if (kept) return send(res, 200, kept);
    const answer = await forward(req, body);
    if (answer.status === 200) searches.set(key, answer.body);
    return send(res, answer.status, answer.body);
  }
  if (req.method === 'POST' && path.endsWith('/_msearch')) {
    const keys = msearchKeys(path, body.toString());
    const kept = keys.map((key) => msearchItems.get(key));
    if (kept.every((item) => item !== undefined)) return send(res, 200, `{"took":0,"responses":[${kept.join(',')}]}`);
    const answer = await forward(req, body);
    if (answer.status === 200) {
      const { responses } = JSON.parse(answer.body.toString()) as { responses: { status?: number }[] };
      responses.forEach((item, i) => {
        if (item.status === 200 && keys[i]) msearchItems.set(keys[i], JSON.stringify(item));
      });
    }
    return send(res, answer.status, answer.body);
  }
  const answer = await forward(req, body);
  send(res, answer.status, answer.body);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    handle(req, res, Buffer.concat(chunks)).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
}).listen(port, '127.0.0.1');
