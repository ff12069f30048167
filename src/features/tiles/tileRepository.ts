/**
 * The boundary tiles of the live generations: one LevelTiles per level, loaded from the areas (or buildings) index
 * the first time a tile of a zoom that shows the level is asked for, and again for each new generation
 * (GenerationCache).
 *
 * Lazily per level rather than all at once: a zoom-3 tile needs the countries and provinces only, so it waits for
 * their load alone (not the municipalities' and buildings' as well); a level no client looks at (the buildings,
 * shown from zoom 14 only) is never read nor held; and each level's index is built in its own turn of the event
 * loop after its own Elasticsearch pages, so the cost of building them is spread in pieces between other requests
 * rather than one block. The shapes come from the documents' `_source`: the geometry the indexer already repaired.
 *
 * With seeding (seed/tileSeeds.ts), a tile of the seeded range comes from the store cut ahead for its generations;
 * the levels above cut only the rest (outside the range, past its zoom, or while the seeding runs).
 */
import { channel } from 'node:diagnostics_channel';
import type { Client, estypes } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import type { IndexKind } from '../../../core/elasticsearch/documents.js';
import type { Encoded } from '../../endpoints/binaryAnswer.js';
import { elasticsearchCall } from '../../elasticsearch/failures.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';
import { LevelTiles, type LevelTilesStats } from './levelTiles.js';
import { levelFeatures } from './levelSource.js';
import { cutTile } from './seed/seedCut.js';
import type { SeedStatus, TileSeeds } from './seed/tileSeeds.js';
import { LEVEL_LAYERS, levelsAt, type TileLevel, toleranceOf } from './zoomTable.js';

/**
 * What one level's index may be charged (in points, levelTiles.ts) before it is built anew: at 80-135 bytes of heap
 * a point, 16-27 MB of cut tiles per level on top of the index itself (bench/probes/tileMemory.ts measures both; with the
 * sample, all six indexes take 37 MB and the heap stayed under 37 + 35 MB through 25,000 zoom-14 tiles). Building the
 * largest level anew takes ~70 ms with the sample (the 923 municipalities), once per that many points of new tiles.
 */
export const DEFAULT_MAX_COST = 200_000;

/** What a tile is read from: the areas and the buildings. */
const SEED_KINDS: IndexKind[] = ['areas', 'buildings'];

/**
 * Where each tile came from, for a probe in the process (bench/support/stallWatch.mjs): `{ z, x, y, source, ms }`,
 * source `store` (cut ahead), `empty` (the seeded range holds nothing there) or `cut` (cut now; `ms` includes waiting
 * for the levels). Published only while someone listens.
 */
export const TILE_SOURCE_CHANNEL = channel('geocoder:tile-source');

/** A tile's bytes: encoded now (compressed on the way out), or already compressed in the seeded encodings. */
export type TileBody = Buffer | Encoded;

export interface TileBounds {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export class BoundaryTiles {
  private readonly levels = new Map<TileLevel, GenerationCache<LevelTiles>>();
  private readonly extent: GenerationCache<TileBounds | undefined>;
  /** The last index loaded of each level, for stats(). */
  private readonly loaded = new Map<TileLevel, LevelTiles>();

  constructor(
    private readonly client: Client,
    private readonly generations: IndexGenerations,
    private readonly logger?: Logger,
    /** The tiles cut ahead (seed/tileSeeds.ts); none: every tile is cut on demand. */
    private readonly seeds?: TileSeeds,
    private readonly maxCost = DEFAULT_MAX_COST,
  ) {
    for (const { level } of LEVEL_LAYERS) {
      const kind: IndexKind = level === 'building' ? 'buildings' : 'areas';
      this.levels.set(level, new GenerationCache(generations, kind, (g) => this.load(level, g)));
    }
    this.extent = new GenerationCache(generations, 'areas', (g) => this.loadBounds(g));
    // Seeding starts as soon as a new generation is noticed (a TileJSON, a tile, any answer reading the areas), not
    // on the first tile that could be served from it.
    if (seeds?.enabled) {
      for (const kind of SEED_KINDS) generations.onNewGeneration(kind, () => void this.seeFromLive());
    }
  }

  private async seeFromLive(): Promise<void> {
    try {
      const [areas, buildings] = await this.generations.of(SEED_KINDS);
      this.seeds!.see(areas!, buildings!);
    } catch {
      // The next tile request looks again.
    }
  }

  /**
   * The tile: compressed from the seeded store, else encoded now (compressed on the way out); undefined when it holds
   * nothing.
   */
  async tile(z: number, x: number, y: number): Promise<TileBody | undefined> {
    const started = TILE_SOURCE_CHANNEL.hasSubscribers ? performance.now() : 0;
    const told = (source: 'store' | 'empty' | 'cut') => {
      if (started) TILE_SOURCE_CHANNEL.publish({ z, x, y, source, ms: performance.now() - started });
    };
    if (this.seeds?.enabled) {
      const [areas, buildings] = await this.generations.of(SEED_KINDS);
      this.seeds.see(areas!, buildings!);
      const seeded = this.seeds.lookup(areas!, buildings!, z, x, y);
      if (seeded) told(seeded === 'empty' ? 'empty' : 'store');
      if (seeded === 'empty') return undefined;
      if (seeded) return seeded;
    }
    const layers = levelsAt(z);
    const indexes = await Promise.all(layers.map(({ level }) => this.levels.get(level)!.get()));
    const tile = cutTile(new Map(layers.map(({ level }, i) => [level, indexes[i]!])), z, x, y);
    told('cut');
    return tile;
  }

  /** Where the seeding stands (/health). */
  seeding(): SeedStatus {
    return this.seeds?.status() ?? { state: 'off' };
  }

  /** What each level's index holds and was charged (the levels loaded so far). */
  stats(): Partial<Record<TileLevel, LevelTilesStats>> {
    return Object.fromEntries([...this.loaded].map(([level, tiles]) => [level, tiles.stats]));
  }

  /** The envelope of every area of the live generation (TileJSON's `bounds`); undefined: no area. */
  bounds(): Promise<TileBounds | undefined> {
    return this.extent.get();
  }

  private async load(level: TileLevel, generation: string): Promise<LevelTiles> {
    const started = Date.now();
    const features = await levelFeatures(this.client, level, generation);
    const tiles = new LevelTiles(features, this.maxCost, toleranceOf(level)).build();
    this.loaded.set(level, tiles);
    this.logger?.info(
      { boundaryTiles: { level, generation, features: features.length, loadMs: Date.now() - started } },
      'tiles: level loaded',
    );
    return tiles;
  }

  private async loadBounds(generation: string): Promise<TileBounds | undefined> {
    const field = (name: string) => ({ field: `bbox.${name}` });
    const res = await elasticsearchCall(() =>
      this.client.search({
        index: concreteIndexes(generation),
        size: 0,
        track_total_hits: false,
        aggs: {
          minLon: { min: field('min_lon') },
          minLat: { min: field('min_lat') },
          maxLon: { max: field('max_lon') },
          maxLat: { max: field('max_lat') },
        },
      }),
    );
    const value = (name: string) => (res.aggregations?.[name] as estypes.AggregationsMinAggregate | undefined)?.value;
    const [minLon, minLat, maxLon, maxLat] = ['minLon', 'minLat', 'maxLon', 'maxLat'].map(value);
    if (minLon == null || minLat == null || maxLon == null || maxLat == null) return undefined;
    return { minLon, minLat, maxLon, maxLat };
  }
}
