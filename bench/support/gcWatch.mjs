/**
 * Loaded into the API with `--import` by `npm run bench:tail`: appends every garbage collection (UTC time, kind,
 * pause in ms) to GC_WATCH_OUT once a second, from Node's `gc` performance entries, so no stdout is needed.
 */
import { appendFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.GC_WATCH_OUT ?? '/tmp/gc-watch.txt';
const kinds = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const lines = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const at = new Date(performance.timeOrigin + e.startTime).toISOString();
    lines.push(`${at} ${kinds[e.detail?.kind] ?? e.detail?.kind} ${e.duration.toFixed(2)}`);
  }
}).observe({ entryTypes: ['gc'] });
setInterval(() => {
  if (lines.length) appendFileSync(out, `${lines.splice(0).join('\n')}\n`);
}, 1000).unref();
