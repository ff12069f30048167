import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errors as esErrors } from '@elastic/elasticsearch';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../../../src/config/service.js';
import { BackendUnavailableError, OverloadedError } from '../../../../core/domain/errors.js';
import { ElasticsearchGuard, type GuardOptions } from '../../../../core/elasticsearch/circuitBreaker.js';
import { KeyStore } from '../../../../src/http/keyStore.js';
import { TokenBuckets } from '../../../../src/http/rateLimit.js';

const timeout = () => Promise.reject(new esErrors.TimeoutError('timed out'));
const answered = () => Promise.resolve('ok');
const badRequest = () =>
  Promise.reject(
    new esErrors.ResponseError({ statusCode: 400, body: {}, headers: {}, warnings: null, meta: {} as any }),
  );

function guardWith(options: Partial<GuardOptions> = {}): ElasticsearchGuard {
  return new ElasticsearchGuard({
    failureThreshold: 3,
    probeIntervalMs: 10,
    probe: answered,
    maxInFlight: 100,
    maxQueued: 100,
    ...options,
  });
}

describe('ElasticsearchGuard: circuit breaker', () => {
  afterEach(() => vi.useRealTimers());

  it('opens after N consecutive timeouts and then refuses at once without calling Elasticsearch', async () => {
    const guard = guardWith({ probe: () => new Promise(() => {}) });
    for (let i = 0; i < 3; i++) await expect(guard.run(timeout)).rejects.toBeInstanceOf(esErrors.TimeoutError);
    expect(guard.breakerState).toBe('open');
    const call = vi.fn(answered);
    await expect(guard.run(call)).rejects.toBeInstanceOf(BackendUnavailableError);
    expect(call).not.toHaveBeenCalled();
    expect(guard.stats()).toMatchObject({ breaker: 'open', rejected_open: 1, round_trips: 3 });
    guard.stop();
  });

  it('counts only consecutive failures: an answer, even an error status, resets the count', async () => {
    const guard = guardWith();
    await expect(guard.run(timeout)).rejects.toThrow();
    await expect(guard.run(timeout)).rejects.toThrow();
    await expect(guard.run(badRequest)).rejects.toBeInstanceOf(esErrors.ResponseError);
    await expect(guard.run(timeout)).rejects.toThrow();
    await expect(guard.run(timeout)).rejects.toThrow();
    expect(guard.breakerState).toBe('closed');
    await guard.run(answered);
    expect(guard.stats().consecutive_failures).toBe(0);
  });

  it('probes in the background while open and closes when Elasticsearch answers', async () => {
    vi.useFakeTimers();
    let reachable = false;
    const probe = vi.fn(() => (reachable ? answered() : timeout()));
    const guard = guardWith({ probe, probeIntervalMs: 1000 });
    const states: string[] = [];
    guard.onStateChange((state) => states.push(state));
    for (let i = 0; i < 3; i++) await expect(guard.run(timeout)).rejects.toThrow();

    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(guard.breakerState).toBe('open');
    reachable = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(guard.breakerState).toBe('closed');
    expect(states).toEqual(['open', 'closed']);
    await expect(guard.run(answered)).resolves.toBe('ok');
    // Closed: no more probes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});

describe('ElasticsearchGuard: stall detection', () => {
  afterEach(() => vi.useRealTimers());
  const never = () => new Promise<string>(() => {});

  it('does not open for a slow read while Elasticsearch answers the probe', async () => {
    vi.useFakeTimers();
    const probe = vi.fn(answered);
    const guard = guardWith({ stallMs: 1000, probe });
    const slow = guard.run(() => new Promise<string>((resolve) => setTimeout(() => resolve('slow'), 5000)));
    await vi.advanceTimersByTimeAsync(5000);
    await expect(slow).resolves.toBe('slow');
    expect(guard.breakerState).toBe('closed');
    expect(probe).toHaveBeenCalled();
    guard.stop();
  });

  it('opens after the window of silence once the probe is unanswered too, and fails the waiting calls', async () => {
    vi.useFakeTimers();
    const guard = guardWith({ stallMs: 1000, probe: never, probeIntervalMs: 60_000 });
    const waiting = guard.run(never);
    const outcome = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(900);
    expect(guard.breakerState).toBe('closed');
    await vi.advanceTimersByTimeAsync(300);
    expect(guard.breakerState).toBe('open');
    expect(await outcome).toBeInstanceOf(BackendUnavailableError);
    await expect(guard.run(answered)).rejects.toBeInstanceOf(BackendUnavailableError);
    guard.stop();
  });
});

describe('ElasticsearchGuard: load shedding', () => {
  it('queues up to the bound, sheds beyond it at once, and hands slots on in order', async () => {
    const guard = guardWith({ maxInFlight: 1, maxQueued: 1 });
    let release!: () => void;
    const first = guard.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const second = guard.run(answered);
    expect(guard.stats()).toMatchObject({ in_flight: 1, queued: 1 });
    await expect(guard.run(answered)).rejects.toBeInstanceOf(OverloadedError);
    expect(guard.stats().shed).toBe(1);
    release();
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('ok');
    expect(guard.stats()).toMatchObject({ in_flight: 0, queued: 0 });
  });
});

describe('TokenBuckets', () => {
  it('allows the burst, refuses with a retry hint, refills at the rate, one bucket per key', () => {
    let now = 0;
    const buckets = new TokenBuckets({ rps: 2, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => buckets.take('a').remaining)).toEqual([2, 1, 0]);
    const refused = buckets.take('a');
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1, resetSeconds: 2 });
    expect(buckets.take('b')).toMatchObject({ allowed: true, remaining: 2 });
    now += 500;
    expect(buckets.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    now += 10_000;
    expect(buckets.take('a')).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 1 });
  });
});

describe('TokenBuckets: bounded table', () => {
  it('keeps at most maxKeys buckets, forgetting the least recently used, however many keys are made up', () => {
    const buckets = new TokenBuckets({ rps: 1, burst: 2 }, () => 0, 3);
    for (let i = 0; i < 1000; i++) buckets.take(`203.0.113.${i}`);
    expect(buckets.size).toBe(3);
    // The most recent ones are remembered (one token spent of two) ...
    expect(buckets.take('203.0.113.999')).toMatchObject({ allowed: true, remaining: 0 });
    expect(buckets.take('203.0.113.999')).toMatchObject({ allowed: false });
    // ... a use moves an address to the back: 997 stays while a new one pushes out 998, the oldest.
    buckets.take('203.0.113.997');
    buckets.take('198.51.100.1');
    expect(buckets.take('203.0.113.997')).toMatchObject({ allowed: false });
    expect(buckets.take('203.0.113.998')).toMatchObject({ allowed: true, remaining: 1 });
    expect(buckets.size).toBe(3);
  });
});

describe('KeyStore', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reloads on SIGHUP, keeps the fixed keys, keeps the old keys when a reload fails, revokes on a keyless file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'geocoder-keystore-'));
    const path = join(dir, 'keys');
    await writeFile(path, 'one\n');
    const logger = pino({ level: 'silent' });
    const error = vi.spyOn(logger, 'error');
    const hex = (keys: KeyStore) => keys.accepted().map((d) => d.toString('hex'));
    const store = new KeyStore([sha256Hex('fixed'), sha256Hex('one')], { path, fixed: [sha256Hex('fixed')], logger });
    store.watch();
    try {
      await writeFile(path, 'two\n');
      process.emit('SIGHUP', 'SIGHUP');
      expect(hex(store).sort()).toEqual([sha256Hex('fixed'), sha256Hex('two')].sort());

      // A bad entry, and zero bytes (a file caught between truncation and write): the old keys stay.
      for (const broken of ['sha256:not-hex\n', '']) {
        await writeFile(path, broken);
        expect(store.reload()).toBe(false);
        expect(hex(store).sort()).toEqual([sha256Hex('fixed'), sha256Hex('two')].sort());
      }
      await rm(path);
      expect(store.reload()).toBe(false);
      expect(error).toHaveBeenCalledTimes(3);

      // A file that says it holds no keys revokes every key it held; API_KEYS stay.
      await writeFile(path, '# every key revoked\n');
      expect(store.reload()).toBe(true);
      expect(hex(store)).toEqual([sha256Hex('fixed')]);
    } finally {
      store.close();
    }
  });
});
