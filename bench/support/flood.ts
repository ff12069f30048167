/**
 * `node --import tsx bench/support/flood.ts <url> <connections> <seconds> [key]`: requests `url` without a key (or
 * with the given, made-up `X-Api-Key`) as fast as `connections` connections go; prints `started` when it begins, then `{requests, statuses, cpu_ms}` as one JSON
 * line. A process of its
 * own (the chaos script's health flood), so the flood's load generator does not share an event loop with the keyed
 * load's, whose latencies it would otherwise inflate; its CPU is reported apart.
 */
import autocannon from 'autocannon';
import { ownCpuMs } from './processCpu.js';

const [url, connections, seconds, key] = process.argv.slice(2);
if (!url) throw new Error('usage: flood.ts <url> <connections> <seconds>');
const cpuBefore = ownCpuMs();
console.log('started');
const result = await autocannon({
  url,
  connections: Number(connections ?? 64),
  duration: Number(seconds ?? 15),
  ...(key ? { headers: { 'x-api-key': key } } : {}),
});
const statuses = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, (stats as { count: number }).count]),
);
console.log(JSON.stringify({ requests: result.requests.total, statuses, cpu_ms: ownCpuMs() - cpuBefore }));
