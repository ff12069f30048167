/**
 * Progress: a bar with rate and ETA on a terminal, otherwise one JSON line to stderr every ~5 s (for
 * logs and CI). Both poll a shared state object, so the hot loop only bumps counters.
 */
import cliProgress from 'cli-progress';
import type { ReadProgress } from '../sources/types.js';

export type ProgressMode = 'auto' | 'json' | 'none';

export interface ProgressState {
  level: string;
  file: string;
  read: number;
  rejected: number;
  bytes: ReadProgress | undefined;
}

export interface ProgressReporter {
  begin(level: string, file: string, bytes: ReadProgress | undefined): void;
  readonly state: ProgressState;
  stop(): void;
}

export interface ProgressOptions {
  mode: ProgressMode;
  stream?: NodeJS.WriteStream;
  intervalMs?: number;
  now?: () => number;
}

/** Pure: the rate since the level began and the ETA from bytes (the only size known up front). */
export function estimate(
  state: ProgressState,
  startedAt: number,
  now: number,
): { rate: number; etaSeconds: number | null; fraction: number | null } {
  const seconds = Math.max((now - startedAt) / 1000, 0.001);
  const rate = state.read / seconds;
  const b = state.bytes;
  if (!b || b.totalBytes <= 0) return { rate, etaSeconds: null, fraction: null };
  const fraction = Math.min(1, b.bytesRead / b.totalBytes);
  const etaSeconds = fraction > 0 ? Math.round((seconds * (1 - fraction)) / fraction) : null;
  return { rate, etaSeconds, fraction };
}

export function createProgress(options: ProgressOptions): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const state: ProgressState = { level: '', file: '', read: 0, rejected: 0, bytes: undefined };
  const clock: Clock = { now, startedAt: now() };
  const mode = options.mode === 'auto' ? (stream.isTTY ? 'bar' : 'json') : options.mode;
  if (mode === 'none') {
    return {
      state,
      begin(level, file, bytes) {
        Object.assign(state, { level, file, read: 0, rejected: 0, bytes });
      },
      stop() {},
    };
  }
  return mode === 'bar'
    ? barProgress(state, clock, stream, options.intervalMs ?? 250)
    : jsonProgress(state, clock, stream, options.intervalMs ?? 5_000);
}

/** When the file being read began, by the reporter's clock. */
interface Clock {
  now: () => number;
  startedAt: number;
}

type ProgressStream = NonNullable<ProgressOptions['stream']>;

/** A bar on the terminal, one per file read. */
function barProgress(state: ProgressState, clock: Clock, stream: ProgressStream, intervalMs: number): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{level} |{bar}| {percentage}% | {read} records | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let active = false;
  const update = () => {
    if (!active) return;
    const { rate } = estimate(state, clock.startedAt, clock.now());
    const b = state.bytes;
    bar.update(b ? b.bytesRead : state.read, { level: state.level, read: state.read, rate: Math.round(rate) });
  };
  const timer = setInterval(update, intervalMs);
  timer.unref();
  return {
    state,
    begin(level, file, bytes) {
      update();
      if (active) bar.stop();
      Object.assign(state, { level, file, read: 0, rejected: 0, bytes });
      clock.startedAt = clock.now();
      bar.start(bytes?.totalBytes || 1, 0, { level, read: 0, rate: 0 });
      active = true;
    },
    stop() {
      update();
      clearInterval(timer);
      if (active) bar.stop();
      active = false;
    },
  };
}

/** One JSON line every interval (logs, CI). */
function jsonProgress(
  state: ProgressState,
  clock: Clock,
  stream: ProgressStream,
  intervalMs: number,
): ProgressReporter {
  const emit = () => {
    if (!state.level) return;
    const { rate, etaSeconds, fraction } = estimate(state, clock.startedAt, clock.now());
    stream.write(
      `${JSON.stringify({
        progress: {
          level: state.level,
          file: state.file,
          read: state.read,
          rejected: state.rejected,
          ratePerSecond: Math.round(rate),
          percent: fraction === null ? null : Math.round(fraction * 1000) / 10,
          etaSeconds,
        },
      })}\n`,
    );
  };
  const timer = setInterval(emit, intervalMs);
  timer.unref();
  return {
    state,
    begin(level, file, bytes) {
      Object.assign(state, { level, file, read: 0, rejected: 0, bytes });
      clock.startedAt = clock.now();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
