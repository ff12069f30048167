/**
 * Preload for the indexer child of `bench:index --probe` (node --import tsx --import this file): where the address
 * phase waits. It watches from the first address file's open (ADDRESS_PROBE_FILES, comma-separated paths) until
 * every address file is read and no bulk request is in flight, and
 * writes one JSON line to ADDRESS_PROBE_OUT at exit:
 * - the main thread's idle time split by the bulk requests in flight when it was idle (idle with a free slot means
 *   waiting for input: the read stage is the bubble; idle with every slot busy means waiting for Elasticsearch);
 * - bulk requests (count, bytes, median and p90 round trip), from undici's diagnostics channels, no patching;
 * - the main thread's CPU (/proc, this thread only) and the whole process's, garbage collections by kind.
 * Measuring only: nothing here changes what the indexer does. Linux only (/proc).
 */
import diagnostics from 'node:diagnostics_channel';
import fs, { readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.ADDRESS_PROBE_OUT;
const files = (process.env.ADDRESS_PROBE_FILES ?? '').split(',').filter(Boolean);
/** Requests in flight above this are counted as this (the indexer's concurrency is 3 by default). */
const MAX_TRACKED = 8;

interface Window {
  startedAt: number;
  readEndedAt: number;
  idleMsByInFlight: number[];
  wallMsByInFlight: number[];
  requests: number;
  bytes: number;
  roundTripsMs: number[];
  mainCpuMs0: number;
  processCpu0: NodeJS.CpuUsage;
  gc: { minor: number; minorMs: number; major: number; majorMs: number; other: number; otherMs: number };
}

let window: Window | undefined;
/** Address files read to their end in this window. */
const ended = new Set<string>();
let readDone = false;
let result: object | undefined;
let inFlight = 0;
let lastUtilization = performance.eventLoopUtilization();
let lastAt = performance.now();
const started = new Map<object, number>();

/** user + system CPU of the main thread (the task whose id is the pid), in ms. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Charges the idle and wall time since the last transition to the number of requests that were in flight. */
function account(): void {
  const utilization = performance.eventLoopUtilization();
  const delta = performance.eventLoopUtilization(utilization, lastUtilization);
  const now = performance.now();
  if (window) {
    const k = Math.min(inFlight, MAX_TRACKED);
    window.idleMsByInFlight[k] = (window.idleMsByInFlight[k] ?? 0) + delta.idle;
    window.wallMsByInFlight[k] = (window.wallMsByInFlight[k] ?? 0) + (now - lastAt);
  }
  lastUtilization = utilization;
  lastAt = now;
}

function openWindow(): void {
  account();
  readDone = false;
  ended.clear();
  window = {
    startedAt: performance.now(),
    readEndedAt: 0,
    idleMsByInFlight: [],
    wallMsByInFlight: [],
    requests: 0,
    bytes: 0,
    roundTripsMs: [],
    mainCpuMs0: mainThreadCpuMs(),
    processCpu0: process.cpuUsage(),
    gc: { minor: 0, minorMs: 0, major: 0, majorMs: 0, other: 0, otherMs: 0 },
  };
}

function summarise(w: Window): object {
  const trips = [...w.roundTripsMs].sort((a, b) => a - b);
  const cpu = process.cpuUsage(w.processCpu0);
  const round = (xs: number[]) => Array.from({ length: xs.length }, (_, i) => Math.round(xs[i] ?? 0));
  return {
    phaseMs: Math.round(performance.now() - w.startedAt),
    readMs: Math.round(w.readEndedAt - w.startedAt),
    idleMsByInFlight: round(w.idleMsByInFlight),
    wallMsByInFlight: round(w.wallMsByInFlight),
    bulkRequests: w.requests,
    bulkBytes: w.bytes,
    bulkRoundTripMsMedian: trips[trips.length >> 1] ?? 0,
    bulkRoundTripMsP90: trips[Math.floor(trips.length * 0.9)] ?? 0,
    mainThreadCpuMs: Math.round(mainThreadCpuMs() - w.mainCpuMs0),
    processCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    gc: Object.fromEntries(Object.entries(w.gc).map(([k, v]) => [k, Math.round(v)])),
  };
}

interface UndiciRequest {
  path: string;
  body?: unknown;
}

diagnostics.subscribe('undici:request:create', (message) => {
  const { request } = message as { request: UndiciRequest };
  if (!window || result || !request.path.includes('_bulk')) return;
  account();
  inFlight++;
  window.requests++;
  const body = request.body;
  window.bytes += typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
  started.set(request, performance.now());
});

function finished(message: unknown): void {
  const { request } = message as { request: UndiciRequest };
  const at = started.get(request);
  if (at === undefined || !window) return;
  started.delete(request);
  account();
  inFlight--;
  window.roundTripsMs.push(performance.now() - at);
  if (readDone && inFlight === 0 && !result) result = summarise(window);
}
diagnostics.subscribe('undici:request:trailers', finished);
diagnostics.subscribe('undici:request:error', finished);

new PerformanceObserver((list) => {
  if (!window || result) return;
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      window.gc.minor++;
      window.gc.minorMs += entry.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      window.gc.major++;
      window.gc.majorMs += entry.duration;
    } else {
      window.gc.other++;
      window.gc.otherMs += entry.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

// The readers import createReadStream from node:fs; wrapping it (and syncing the ESM view) sees each open. The
// window opens at the first address file's open and spans every address file; an open of any other file before a
// bulk request was sent discards it (the input checks open each address file once before the areas are loaded).
const createReadStream = fs.createReadStream;
fs.createReadStream = function (this: unknown, ...args: Parameters<typeof createReadStream>) {
  const path = String(args[0]);
  const watched = files.includes(path);
  if (watched && !window) openWindow();
  if (!watched && window && !result && window.requests === 0) window = undefined;
  const stream = createReadStream.apply(this, args);
  if (watched) {
    ended.delete(path);
    stream.on('end', () => {
      ended.add(path);
      if (ended.size < files.length || !window) return;
      readDone = true;
      window.readEndedAt = performance.now();
    });
  }
  return stream;
};
syncBuiltinESMExports();

process.on('exit', () => {
  if (!out) return;
  const summary = result ?? (window ? summarise(window) : { error: 'no address file was opened' });
  writeFileSync(out, `${JSON.stringify(summary)}\n`);
});
