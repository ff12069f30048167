/**
 * `node --import tsx bench/support/looper.ts <url> <connections> <seconds> [name=value ...]`: GETs `url` in a loop on
 * `connections` keep-alive connections, each asking again as soon as its answer has arrived, and discards the
 * bodies; then prints `{requests, bytes, statuses, p50_ms, p99_ms, cpu_ms}` as one JSON line. The map clients of
 * the mixed scenario (bench/load/apiBench.ts). Not autocannon: it appends every body chunk to a string
 * (`req.body += data`), decoding ~630 KB of brotli as UTF-8 per answer, about 6x the API's CPU for the same answer
 * (13 against 2 ms on the shared box); on two cores that generator, not the API, was what geocoding lost to. A
 * real map client does its receiving on its own machine; node:http's parser hands the body over as buffers.
 */
import { Agent, get } from 'node:http';
import { ownCpuMs } from './processCpu.js';

const [url, connections = '4', seconds = '10', ...headerArgs] = process.argv.slice(2);
if (!url) throw new Error('usage: looper.ts <url> <connections> <seconds> [name=value ...]');
const headers = Object.fromEntries(headerArgs.map((h) => [h.slice(0, h.indexOf('=')), h.slice(h.indexOf('=') + 1)]));
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const cpuBefore = ownCpuMs();
const endAt = Date.now() + Number(seconds) * 1000;
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let bytes = 0;

function loop(): Promise<void> {
  return new Promise((resolve) => {
    const next = () => (Date.now() < endAt ? ask() : resolve());
    const ask = () => {
      const started = performance.now();
      const req = get(url!, { agent, headers }, (res) => {
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

await Promise.all(Array.from({ length: Number(connections) }, loop));
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
