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
 * that fails (its heap cap, Elasticsearch) leaves its generation cut on demand.
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

export interface SeedStatus {
  state: 'off' | 'seeding' | 'complete' | 'failed';
  generation?: string;
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
  state: 'seeding' | 'complete' | 'failed';
  range?: SeedRange;
  stats?: SeedStats;
  started: number;
  ended?: number;
}

/** The worker's module beside this one: TypeScript run through tsx (the tests, `npm start`), else the build's JS. */
function workerModule(): { url: URL; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './seedWorker.ts' : './seedWorker.js', import.meta.url);
  return fromSource ? { url, execArgv: ['--import', 'tsx'] } : { url };
}

export class TileSeeds {
  private current: Seeding | undefined;

  constructor(
    private readonly options: TileSeedingOptions,
    /** Undefined: no URL to give the worker, so no seeding. */
    private readonly elasticsearch: SeedInput['elasticsearch'] | undefined,
    private readonly logger?: Logger,
  ) {}

  get enabled(): boolean {
    return this.options.enabled && this.elasticsearch !== undefined;
  }

  /** The generations tiles are read from now: a pair not seen before starts its seeding (and ends the last one's). */
  see(areas: string, buildings: string): void {
    if (!this.enabled) return;
    const generation = `${areas} ${buildings}`;
    if (this.current?.generation === generation) return;
    this.stop();
    this.current = this.start(generation, areas, buildings);
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
    if (seeding?.state === 'seeding') seeding.worker.kill();
  }

  private start(generation: string, areas: string, buildings: string): Seeding {
    const input: SeedInput = {
      elasticsearch: this.elasticsearch!,
      areas,
      buildings,
      maxZoom: this.options.maxZoom,
      encodings: STORED_ENCODINGS,
    };
    const { url, execArgv } = workerModule();
    const worker = fork(url, [], {
      execArgv: [...(execArgv ?? []), `--max-old-space-size=${this.options.workerHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
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
    worker.on('message', (message: SeedMessage) => {
      if (message.type === 'batch') seeding.store.add(message);
      else {
        seeding.range = message.range;
        seeding.stats = message.stats;
        seeding.state = 'complete';
        seeding.ended = Date.now();
        log?.info({ tileSeeding: { generation, ...message.stats } }, 'tiles: seeding complete');
        // It exits once the end is sent; should it linger, its heap is not to stay around.
        worker.kill();
      }
    });
    const failed = (error: Error) => {
      if (seeding.state !== 'seeding') return;
      seeding.state = 'failed';
      seeding.ended = Date.now();
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
