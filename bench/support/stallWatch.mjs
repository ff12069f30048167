/**
 * `--import` into the API by bench/probes/tileStall.ts: what the process did, moment by moment, so that a slow
 * request can be put beside its cause. Appends JSON lines to STALL_WATCH_OUT once a second:
 * - `{ type: 'second', at, loopP99, loopMax, cpuMs, runqueueMs, machineMs, stealMs, gcMs, gcs }`: the event loop's
 *   delay (p99 and max, ms) over that second, the process's CPU, the main thread's time waiting for a core (runnable
 *   but not running: /proc/self/task/<pid>/schedstat, the machine's other work), the whole machine's busy CPU and the
 *   time the hypervisor took from its cores (/proc/stat), and the process's garbage collections;
 * - `{ type: 'stall', at, ms }`: a 5 ms ticker that came late by 20 ms or more (when the loop was held);
 * - `{ type: 'gc', at, ms, kind }`: each collection of 5 ms or more;
 * - `{ type: 'req', at, ms, url, status, nth, source?, tileMs? }`: each request, `at` when Node parsed it (epoch
 *   ms), `ms` until its response finished, `nth` its place on its connection (1: the connection's first request),
 *   and for a tile where it came from (src/features/tiles/tileRepository.ts' diagnostics channel: `store`, `empty`
 *   or `cut`) and how long the tile took inside the handler;
 * - `{ type: 'conn', at }`: each connection accepted.
 */
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.STALL_WATCH_OUT ?? `/tmp/stall-watch-${process.pid}.jsonl`;
const epoch = () => performance.timeOrigin + performance.now();
let lines = [];

const starts = new WeakMap();
// A tile's message comes while its request is being answered: kept by its z/x/y until the response finishes.
const tileSources = new Map();
const TILE_URL = /\/tiles\/boundaries\/(\d+\/\d+\/\d+)\.mvt/;
subscribe('geocoder:tile-source', ({ z, x, y, source, ms }) => tileSources.set(`${z}/${x}/${y}`, { source, ms }));
const perSocket = new WeakMap();
subscribe('net.server.socket', ({ socket }) => {
  perSocket.set(socket, 0);
  lines.push({ type: 'conn', at: epoch() });
});
subscribe('http.server.request.start', ({ request, socket }) => {
  starts.set(request, epoch());
  const nth = (perSocket.get(socket) ?? 0) + 1;
  perSocket.set(socket, nth);
  request.nthOnSocket = nth;
});
subscribe('http.server.response.finish', ({ request, response }) => {
  const at = starts.get(request);
  if (at === undefined) return;
  const line = {
    type: 'req',
    at,
    ms: epoch() - at,
    url: request.url,
    status: response.statusCode,
    nth: request.nthOnSocket,
  };
  const tile = TILE_URL.exec(request.url ?? '')?.[1];
  const source = tile && tileSources.get(tile);
  if (source) {
    tileSources.delete(tile);
    Object.assign(line, { source: source.source, tileMs: source.ms });
  }
  lines.push(line);
});

const histogram = monitorEventLoopDelay({ resolution: 2 });
histogram.enable();
let gcMs = 0;
let gcs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    gcs++;
    if (entry.duration >= 5) {
      lines.push({
        type: 'gc',
        at: performance.timeOrigin + entry.startTime,
        ms: entry.duration,
        kind: entry.detail?.kind,
      });
    }
  }
}).observe({ entryTypes: ['gc'] });

let lastTick = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - lastTick - 5;
  if (late >= 20) lines.push({ type: 'stall', at: performance.timeOrigin + lastTick, ms: late });
  lastTick = now;
}, 5).unref();

const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const runqueueNs = () => {
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[1]);
  } catch {
    return 0;
  }
};
/** The machine's busy and stolen CPU so far, ms (/proc/stat's first line, in 10 ms ticks). */
const machine = () => {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: (user + nice + system + irq + softirq + steal) * 10, steal: steal * 10 };
};
let lastMachine = machine();
let lastCpu = process.cpuUsage();
let lastRunqueue = runqueueNs();
setInterval(() => {
  const cpu = process.cpuUsage();
  const runqueue = runqueueNs();
  const now = machine();
  lines.push({
    type: 'second',
    at: epoch(),
    loopP99: histogram.percentile(99) / 1e6,
    loopMax: histogram.max / 1e6,
    cpuMs: (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000,
    runqueueMs: (runqueue - lastRunqueue) / 1e6,
    machineMs: now.busy - lastMachine.busy,
    stealMs: now.steal - lastMachine.steal,
    gcMs,
    gcs,
  });
  histogram.reset();
  [lastCpu, lastRunqueue, lastMachine, gcMs, gcs] = [cpu, runqueue, now, 0, 0];
  appendFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  lines = [];
}, 1000).unref();
