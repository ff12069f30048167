/**
 * `node --import tsx bench/support/looper.ts <url> <connections> <seconds> [name=value ...]`: GETs `url` in a loop on
 * `connections` keep-alive connections, each asking again as soon as its answer has arrived, and discards the
 * bodies (`@file` instead of a URL: the JSON list of URLs in that file, each connection walking it in order from
 * its own share of it, as map clients panning over tiles; LOOPER_PAUSE_MS: each connection waits that long after
 * each answer, a client asking at its own pace rather than as fast as it is answered); then prints `{requests, bytes, statuses, p50_ms, p99_ms, cpu_ms}` as one JSON line. The map clients of
 * the mixed scenario (bench/load/apiBench.ts). Not autocannon: it appends every body chunk to a string
 * (`req.body += data`), decoding ~630 KB of brotli as UTF-8 per answer, about 6x the API's CPU for the same answer
 * (13 against 2 ms on the shared box); on two cores that generator, not the API, was what geocoding lost to. A
 * real map client does its receiving on its own machine; node:http's parser hands the body over as buffers.
 */
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { ownCpuMs } from './processCpu.js';

const [url, connections = '4', seconds = '10', ...headerArgs] = process.argv.slice(2);
if (!url) throw new Error('usage: looper.ts <url> <connections> <seconds> [name=value ...]');
const headers = Object.fromEntries(headerArgs.map((h) => [h.slice(0, h.indexOf('=')), h.slice(h.indexOf('=') + 1)]));
const pauseMs = Number(process.env.LOOPER_PAUSE_MS ?? 0);
const urls: string[] = url.startsWith('@') ? JSON.parse(readFileSync(url.slice(1), 'utf8')) : [url];
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const cpuBefore = ownCpuMs();
const endAt = Date.now() + Number(seconds) * 1000;
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let bytes = 0;

function loop(connection: number): Promise<void> {
  let position = Math.floor((connection * urls.length) / Number(connections));
  return new Promise((resolve) => {
    const next = () => (Date.now() >= endAt ? resolve() : pauseMs > 0 ? setTimeout(ask, pauseMs) : ask());
    const ask = () => {
      const started = performance.now();
      const target = urls[position++ % urls.length]!;
      const req = get(target, { agent, headers }, (res) => {
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          latencies.push(performance.now() - started);
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          next();
        });
      });
      req.on('error', () => {
        statuses['0'] = (statuses['0'] ?? 0) + 1;
        setTimeout(next, 10);
      });
    };
    ask();
  });
}

await Promise.all(Array.from({ length: Number(connections) }, (_, i) => loop(i)));
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
console.log(
  JSON.stringify({
    requests: latencies.length,
    bytes,
    statuses,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    cpu_ms: Math.round(ownCpuMs() - cpuBefore),
  }),
);
