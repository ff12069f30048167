/**
 * `--import` into a process under test (bench/probes/mixedProbe.ts): its event-loop delay since the last report. On SIGUSR2
 * it writes `{p50, p99, max, mean}` in ms to `<EVENT_LOOP_PROBE_DIR>/event-loop-<pid>.json` and starts over.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const ms = (ns: number) => Math.round(ns / 1e4) / 100;
process.on('SIGUSR2', () => {
  const { percentile, max, mean } = histogram;
  writeFileSync(
    join(process.env.EVENT_LOOP_PROBE_DIR ?? '/tmp', `event-loop-${process.pid}.json`),
    JSON.stringify({
      p50: ms(percentile.call(histogram, 50)),
      p99: ms(percentile.call(histogram, 99)),
      max: ms(max),
      mean: ms(mean),
    }),
  );
  histogram.reset();
});
