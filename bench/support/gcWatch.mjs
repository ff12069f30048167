/**
 * Loaded into the API with `--import` by `npm run bench:tail`: appends every garbage collection to GC_WATCH_OUT,
 * twice a second, as a line `<epoch ms> <kind> <pause ms> <allocated bytes> <promoted bytes>`, so no stdout is
 * needed. From V8's GC profiler (node:v8 GCProfiler), which reports every collection with the heap's spaces before
 * and after it:
 * - allocated: young-generation bytes allocated since the previous collection (what this one found in the young
 *   spaces, less what the previous one left there);
 * - promoted (scavenges only): how much the old spaces grew during it, i.e. what outlived two scavenges (or sat on
 *   a page promoted whole) and moved to the old generation, where only a mark-compact frees it.
 * The time is when the profiler's half-second chunk ended (the profiler does not time single collections).
 * Each half second also gets a line `<epoch ms> loop <max ms> <p99 ms> 0`: the event loop's delay in it
 * (perf_hooks, 1 ms resolution).
 */
import { appendFileSync } from 'node:fs';
import { GCProfiler } from 'node:v8';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.GC_WATCH_OUT ?? '/tmp/gc-watch.txt';
const YOUNG = new Set(['new_space', 'new_large_object_space']);
const OLD = new Set(['old_space', 'large_object_space', 'code_space', 'code_large_object_space', 'trusted_space']);
const kinds = { Scavenge: 'minor', MinorMarkSweep: 'minor', MarkSweepCompact: 'major' };

const used = (spaces, names) => spaces.reduce((n, s) => n + (names.has(s.spaceName) ? s.spaceUsedSize : 0), 0);

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();

let profiler = new GCProfiler();
profiler.start();
/** Young bytes the previous collection left behind. */
let youngLeft = 0;

function flush() {
  const { statistics } = profiler.stop();
  profiler = new GCProfiler();
  profiler.start();
  const at = Date.now();
  const lines = [];
  for (const s of statistics) {
    const before = s.beforeGC.heapSpaceStatistics;
    const after = s.afterGC.heapSpaceStatistics;
    const youngBefore = used(before, YOUNG);
    const allocated = Math.max(0, youngBefore - youngLeft);
    youngLeft = used(after, YOUNG);
    const promoted = s.gcType === 'Scavenge' ? Math.max(0, used(after, OLD) - used(before, OLD)) : 0;
    const kind = kinds[s.gcType] ?? s.gcType;
    lines.push(`${at} ${kind} ${(s.cost / 1000).toFixed(2)} ${allocated} ${promoted}`);
  }
  lines.push(`${at} loop ${(loop.max / 1e6).toFixed(2)} ${(loop.percentile(99) / 1e6).toFixed(2)} 0`);
  loop.reset();
  appendFileSync(out, `${lines.join('\n')}\n`);
}

setInterval(flush, 500).unref();
