/**
 * The tiles of the live generations cut ahead, off the request path (issue 38's new-tile target): when the tiles
 * first see a pair of generations (areas, buildings), a child process (seedWorker.ts) cuts every tile of zooms 0 to
 * `maxZoom` over the extent of the municipalities and deeper levels (NL and BE) and hands them over compressed; the
 * API then serves them as they are, in the client's encoding, without cutting or compressing.
 *
 * A child process rather than a worker thread: a worker thread's heap stays in the API's RSS after it ends (V8 keeps
 * its pages: +486 MB after seeding the bulk data, measured with bench/probes/tileSeed.ts), a child's goes back to the
 * system when it exits (+15 MB). It runs at nice 19, with its heap capped (`workerHeapMb`).
 *
 * Until the worker is done, a tile it has not handed over yet is cut on demand as before; once it is done, a tile of
 * the range that it did not hand over holds nothing (a 204 without cutting), and a tile outside the range (countries
 * and provinces only, or deeper than `maxZoom`) is still cut on demand. A new generation ends the last one's worker
 * and drops its store: a tile is only ever answered from the store of the generations it was asked with. A worker
 * that fails (its heap cap, Elasticsearch), that reports no progress for `stallMs` (it hangs: it is killed) or whose
 * tiles would take the store past `maxBytes` (it is ended, the tiles that fit kept) leaves the rest of its
 * generation cut on demand.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Logger } from 'pino';
import type { TileSeedingOptions } from '../../../config/tileSeeding.js';
import type { Encoded } from '../../../endpoints/binaryAnswer.js';
import { inSeedRange, type SeedRange, tileKey } from './pyramid.js';
import type { StoredEncoding } from './seedCut.js';
import type { SeedInput, SeedMessage, SeedStats } from './seedMessages.js';
import { SeedStore } from './seedStore.js';

/** Both encodings: browsers ask for brotli over HTTPS only (gzip over plain HTTP), other clients often gzip alone. */
export const STORED_ENCODINGS: StoredEncoding[] = ['br', 'gzip'];

/** What the store says of a tile: its bytes, that it holds nothing, or nothing (cut it on demand). */
export type SeedAnswer = Encoded | 'empty' | undefined;

/**
 * `stalled`: the worker reported no progress for `stallMs` and was killed; `capped`: the store reached `maxBytes` and
 * the worker was ended. Both, as `failed`, leave the tiles not stored cut on demand.
 */
export type SeedState = 'seeding' | 'complete' | 'failed' | 'stalled' | 'capped';

export interface SeedStatus {
  state: 'off' | SeedState;
  generation?: string;
  /** Why the seeding ended early (failed, stalled, capped). */
  reason?: string;
  /** Tiles handed over so far, and their bytes (every encoding). */
  tiles?: number;
  bytes?: number;
  seconds?: number;
  stats?: SeedStats;
}

interface Seeding {
  generation: string;
  worker: ChildProcess;
  store: SeedStore;
  state: SeedState;
  reason?: string;
  range?: SeedRange;
  stats?: SeedStats;
  started: number;
  ended?: number;
  /** Fires when the worker has said nothing for `stallMs` (refreshed by each message). */
  watchdog?: NodeJS.Timeout;
}

/** The worker's module beside this one: TypeScript run through tsx (the tests, `npm start`), else the build's JS. */
const SEED_WORKER = new URL(import.meta.url.endsWith('.ts') ? './seedWorker.ts' : './seedWorker.js', import.meta.url);

/** Starts a seeding worker with its heap capped (MB); the input is sent to it afterwards. */
export type StartWorker = (heapMb: number) => ChildProcess;

/**
 * Forks the seeding worker (or, in a test, a module of its own that plays it: one that hangs), its channel carrying
 * the input and the messages (advanced serialization).
 */
export function forkSeedWorker(heapMb: number, module: URL = SEED_WORKER): ChildProcess {
  const execArgv = module.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return fork(module, [], {
    execArgv: [...execArgv, `--max-old-space-size=${heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

export class TileSeeds {
  private current: Seeding | undefined;
  private readonly listeners: ((status: SeedStatus) => void)[] = [];

  constructor(
    private readonly options: TileSeedingOptions,
    /** Undefined: no URL to give the worker, so no seeding. */
    private readonly elasticsearch: SeedInput['elasticsearch'] | undefined,
    private readonly logger?: Logger,
    private readonly startWorker: StartWorker = forkSeedWorker,
  ) {}

  get enabled(): boolean {
    return this.options.enabled && this.elasticsearch !== undefined;
  }

  /** Calls `listener` with the status each time a seeding starts or ends (complete, failed, stalled, capped). */
  onChange(listener: (status: SeedStatus) => void): void {
    this.listeners.push(listener);
  }

  /** The generations tiles are read from now: a pair not seen before starts its seeding (and ends the last one's). */
  see(areas: string, buildings: string): void {
    if (!this.enabled) return;
    const generation = `${areas} ${buildings}`;
    if (this.current?.generation === generation) return;
    this.stop();
    this.current = this.start(generation, areas, buildings);
    this.changed();
  }

  lookup(areas: string, buildings: string, z: number, x: number, y: number): SeedAnswer {
    const seeding = this.current;
    if (!seeding || seeding.generation !== `${areas} ${buildings}`) return undefined;
    const encoded = seeding.store.get(tileKey(z, x, y));
    if (encoded) return { encoded };
    if (seeding.state === 'complete' && seeding.range && inSeedRange(seeding.range, z, x, y)) return 'empty';
    return undefined;
  }

  status(): SeedStatus {
    const seeding = this.current;
    if (!seeding) return { state: 'off' };
    const { tiles, bytes } = seeding.store.size;
    const seconds = ((seeding.ended ?? Date.now()) - seeding.started) / 1000;
    return {
      state: seeding.state,
      generation: seeding.generation,
      ...(seeding.reason ? { reason: seeding.reason } : {}),
      tiles,
      bytes,
      seconds: Math.round(seconds * 10) / 10,
      ...(seeding.stats ? { stats: seeding.stats } : {}),
    };
  }

  /** Ends the worker, if one runs (a new generation, the process shutting down). */
  stop(): void {
    const seeding = this.current;
    this.current = undefined;
    if (seeding?.state === 'seeding') {
      clearTimeout(seeding.watchdog);
      seeding.worker.kill();
    }
  }

  private changed(): void {
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }

  /** Ends a seeding still under way in `state`; false when it had ended already. */
  private end(seeding: Seeding, state: Exclude<SeedState, 'seeding'>, reason?: string): boolean {
    if (seeding.state !== 'seeding') return false;
    seeding.state = state;
    if (reason) seeding.reason = reason;
    seeding.ended = Date.now();
    clearTimeout(seeding.watchdog);
    if (this.current === seeding) this.changed();
    return true;
  }

  private start(generation: string, areas: string, buildings: string): Seeding {
    const input: SeedInput = {
      elasticsearch: this.elasticsearch!,
      areas,
      buildings,
      maxZoom: this.options.maxZoom,
      encodings: STORED_ENCODINGS,
    };
    const worker = this.startWorker(this.options.workerHeapMb);
    try {
      // The lowest priority: the API's event loop and Elasticsearch take the cores first.
      if (worker.pid !== undefined) setPriority(worker.pid, 19);
    } catch {
      // Not allowed here (some containers): it competes at the API's priority.
    }
    worker.send(input);
    // The API may exit while its worker seeds (a test, a CLI): the worker does not hold it open (and, its channel
    // closed, ends: the worker exits when it can no longer send).
    worker.unref();
    worker.channel?.unref();
    const seeding: Seeding = {
      generation,
      worker,
      store: new SeedStore(STORED_ENCODINGS),
      state: 'seeding',
      started: Date.now(),
    };
    const log = this.logger?.child({ tileSeeding: { generation } });
    log?.info('tiles: seeding started');
    const { stallMs, maxBytes } = this.options;
    if (stallMs > 0) {
      // A worker that hangs (a read that never ends, a loop) would stay `seeding` for good, its tiles cut on demand
      // without a word: it is killed (SIGKILL: a hung process may not act on a TERM) and the seeding called stalled.
      seeding.watchdog = setTimeout(() => {
        const reason = `the seeding worker reported no progress for ${stallMs} ms (TILE_SEED_STALL_MS) and was killed`;
        if (!this.end(seeding, 'stalled', reason)) return;
        worker.kill('SIGKILL');
        log?.warn({ tileSeeding: { generation, stall_ms: stallMs } }, `tiles: ${reason}; the rest stays cut on demand`);
      }, stallMs);
      // Nor does the watchdog hold the API open.
      seeding.watchdog.unref();
    }
    worker.on('message', (message: SeedMessage) => {
      // A message sent before the worker was ended (stalled, capped, a new generation) is of no use any more.
      if (seeding.state !== 'seeding') return;
      seeding.watchdog?.refresh();
      if (message.type === 'progress') return;
      if (message.type === 'batch') {
        if (seeding.store.add(message, maxBytes)) return;
        const reason = `the seeded tiles reached the store's cap of ${maxBytes} bytes (TILE_SEED_MAX_BYTES)`;
        this.end(seeding, 'capped', reason);
        worker.kill();
        log?.warn(
          { tileSeeding: { generation, ...seeding.store.size } },
          `tiles: ${reason}; the rest is cut on demand`,
        );
        return;
      }
      seeding.range = message.range;
      seeding.stats = message.stats;
      this.end(seeding, 'complete');
      log?.info({ tileSeeding: { generation, ...message.stats } }, 'tiles: seeding complete');
      // It exits once the end is sent; should it linger, its heap is not to stay around.
      worker.kill();
    });
    const failed = (error: Error) => {
      if (!this.end(seeding, 'failed', error.message)) return;
      log?.warn({ err: error }, 'tiles: seeding failed; the tiles stay cut on demand');
    };
    worker.on('error', failed);
    worker.on('exit', (code, signal) => {
      if (this.current === seeding)
        failed(new Error(`the seeding worker ended (${code ?? signal}) before it was done`));
    });
    return seeding;
  }
}
