/**
 * The pure parts of cutting tiles ahead: which tiles are seeded (the range, the walk that visits each once), the
 * number each is kept under, and the store that hands them back per encoding.
 */
import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { SEED_ZOOM_LIMIT } from '../../../../src/config/tileSeeding.js';
import { loadConfig } from '../../../../src/config/service.js';
import {
  extentOf,
  inSeedRange,
  type SeedRange,
  seedOrder,
  spanAt,
  tileCount,
  tileKey,
} from '../../../../src/features/tiles/seed/pyramid.js';
import { SeedStore } from '../../../../src/features/tiles/seed/seedStore.js';
import { REGION_ZOOM } from '../../../../src/features/tiles/regionTiles.js';
import { MAX_ZOOM } from '../../../../src/features/tiles/zoomTable.js';
import { boxPolygon } from '../../../support/geometry.js';
import { tilesOver } from '../../../support/vectorTiles.js';

const square = (minLon: number, minLat: number, maxLon: number, maxLat: number): Feature<Geometry, unknown> => ({
  type: 'Feature',
  properties: {},
  geometry: boxPolygon(minLon, minLat, maxLon, maxLat),
});

/** Around Delft and The Hague: a few tiles wide at zoom 12. */
const BOX: [number, number, number, number] = [4.2, 51.95, 4.45, 52.1];
const range = (maxZoom: number): SeedRange => ({ maxZoom, box: extentOf([square(...BOX)])! });

describe('the seeded range', () => {
  it('holds, per zoom, exactly the tiles over the extent, to its last zoom', () => {
    const r = range(13);
    for (let z = 0; z <= 13; z++) {
      const expected = tilesOver(BOX, z);
      const { minX, minY, maxX, maxY } = spanAt(r, z);
      expect((maxX - minX + 1) * (maxY - minY + 1), `zoom ${z}`).toBe(expected.length);
      for (const { x, y } of expected) expect(inSeedRange(r, z, x, y)).toBe(true);
      expect(inSeedRange(r, z, minX - 1, minY)).toBe(false);
      expect(inSeedRange(r, z, maxX, maxY + 1)).toBe(false);
    }
    const [x14, y14] = [tilesOver(BOX, 14)[0]!.x, tilesOver(BOX, 14)[0]!.y];
    expect(inSeedRange(r, 14, x14, y14)).toBe(false);
  });

  it('is walked once per tile, each REGION_ZOOM tile’s deeper tiles one after another', () => {
    const r = range(14);
    const walked = [...seedOrder(r)];
    const keys = walked.map(([z, x, y]) => tileKey(z, x, y));
    expect(new Set(keys).size).toBe(walked.length);
    expect(walked.length).toBe(tileCount(r));
    expect(walked.every(([z, x, y]) => inSeedRange(r, z, x, y))).toBe(true);
    // Past REGION_ZOOM, the region a tile lies in changes only when all of the last region's tiles are done.
    const regions = walked
      .filter(([z]) => z > REGION_ZOOM)
      .map(([z, x, y]) => `${x >> (z - REGION_ZOOM)}/${y >> (z - REGION_ZOOM)}`);
    const runs = regions.filter((region, i) => i === 0 || region !== regions[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
  });

  it('is empty for nothing to seed', () => {
    expect(extentOf([])).toBeUndefined();
  });
});

describe('a tile’s key', () => {
  it('is one small integer per tile of the pyramid', () => {
    const seen = new Set<number>();
    for (let z = 0; z <= 4; z++) {
      for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) seen.add(tileKey(z, x, y));
    }
    expect(seen.size).toBe((4 ** 5 - 1) / 3);
    expect(Math.min(...seen)).toBe(0);
    expect(Math.max(...seen)).toBe(seen.size - 1);
    const last = tileKey(MAX_ZOOM, 2 ** MAX_ZOOM - 1, 2 ** MAX_ZOOM - 1);
    expect(last).toBe((4 ** (MAX_ZOOM + 1) - 1) / 3 - 1);
    expect(last).toBeLessThan(2 ** 30);
  });
});

describe('the store', () => {
  it('gives back each tile’s bytes per encoding, from batches as the worker sends them', () => {
    const store = new SeedStore(['br', 'gzip']);
    const tiles = [
      { key: tileKey(3, 4, 2), br: 'brA', gzip: 'gzipA' },
      { key: tileKey(12, 2097, 1352), br: 'b', gzip: 'gzip-longer' },
    ];
    for (const batch of [tiles.slice(0, 1), tiles.slice(1)]) {
      const data = Buffer.from(batch.map((t) => t.br + t.gzip).join(''));
      store.add({
        type: 'batch',
        keys: Uint32Array.from(batch.map((t) => t.key)),
        lengths: Uint32Array.from(batch.flatMap((t) => [t.br.length, t.gzip.length])),
        data: data.buffer.slice(data.byteOffset, data.byteOffset + data.length),
      });
    }
    for (const t of tiles) {
      const got = store.get(t.key)!;
      expect([got.br!.toString(), got.gzip!.toString()]).toEqual([t.br, t.gzip]);
    }
    expect(store.get(tileKey(3, 4, 3))).toBeUndefined();
    expect(store.size.tiles).toBe(2);
  });

  it('keeps no more than its cap: the tiles of a batch that fit, whole, then says it is full', () => {
    const store = new SeedStore(['br', 'gzip']);
    const tiles = [
      { key: 1, br: 'aaaa', gzip: 'AAAA' },
      { key: 2, br: 'bbb', gzip: 'BBB' },
      { key: 3, br: 'cc', gzip: 'CC' },
    ];
    const data = Buffer.from(tiles.map((t) => t.br + t.gzip).join(''));
    const batch = {
      type: 'batch' as const,
      keys: Uint32Array.from(tiles.map((t) => t.key)),
      lengths: Uint32Array.from(tiles.flatMap((t) => [t.br.length, t.gzip.length])),
      data: data.buffer.slice(data.byteOffset, data.byteOffset + data.length),
    };
    // 8 + 6 bytes fit in 15; the third tile's 4 would not (nor half of it).
    expect(store.add(batch, 15)).toBe(false);
    expect(store.size).toEqual({ tiles: 2, bytes: 14 });
    expect(store.get(2)!.gzip!.toString()).toBe('BBB');
    expect(store.get(3)).toBeUndefined();
    expect(store.add(batch, 15)).toBe(false);
    expect(store.size).toEqual({ tiles: 2, bytes: 14 });
    expect(new SeedStore(['br', 'gzip']).add(batch, 18)).toBe(true);
  });
});

describe('its configuration', () => {
  it('is on by default to the pyramid’s last zoom, and refuses a zoom past it', () => {
    expect(SEED_ZOOM_LIMIT).toBe(MAX_ZOOM);
    expect(loadConfig({}).tileSeeding).toMatchObject({ enabled: true, maxZoom: MAX_ZOOM });
    expect(loadConfig({ TILE_SEEDING: 'false', TILE_SEED_MAX_ZOOM: '12' }).tileSeeding).toMatchObject({
      enabled: false,
      maxZoom: 12,
    });
    expect(() => loadConfig({ TILE_SEED_MAX_ZOOM: '15' })).toThrow(/TILE_SEED_MAX_ZOOM/);
  });

  it('has a watchdog of a minute (0: none) and a store cap of 128 MiB', () => {
    expect(loadConfig({}).tileSeeding).toMatchObject({ stallMs: 60_000, maxBytes: 128 * 1024 * 1024 });
    expect(loadConfig({ TILE_SEED_STALL_MS: '0', TILE_SEED_MAX_BYTES: '1000' }).tileSeeding).toMatchObject({
      stallMs: 0,
      maxBytes: 1000,
    });
    expect(() => loadConfig({ TILE_SEED_STALL_MS: '-1' })).toThrow(/TILE_SEED_STALL_MS/);
    expect(() => loadConfig({ TILE_SEED_MAX_BYTES: '0' })).toThrow(/TILE_SEED_MAX_BYTES/);
  });
});
