/**
 * The seeding's cutting (pure, no I/O): each tile of the range cut exactly as the API cuts it on demand (the same
 * LevelTiles per level, encodeTile), then compressed once in each stored encoding; a tile that holds nothing is
 * left out (the store answers it 204).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ContentCoding } from '../../../endpoints/binaryAnswer.js';
import { encodeTile } from '../encodeTile.js';
import type { LevelTiles } from '../levelTiles.js';
import { levelsAt, type TileLevel } from '../zoomTable.js';
import { type SeedRange, seedOrder, tileKey } from './pyramid.js';

/** The content codings a tile is stored in (the ones BinaryAnswer sends as they are). */
export type StoredEncoding = ContentCoding;

/**
 * Brotli 6 and gzip 9, as the body cache makes its kept answers' encodings (src/http/bodyCache.ts): made once per
 * tile, off the request path, where brotli 11 would cost ~20 times as much CPU for a few percent fewer bytes.
 */
export const COMPRESSORS: Record<StoredEncoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

export interface SeededTile {
  key: number;
  /** One buffer per stored encoding, in the order asked. */
  encoded: Buffer[];
  identityBytes: number;
}

/** The encoded tile z/x/y from the levels' tiles; undefined when it holds nothing. */
export function cutTile(levels: ReadonlyMap<TileLevel, LevelTiles>, z: number, x: number, y: number) {
  return encodeTile(levelsAt(z).map(({ level, layer }) => ({ layer, tile: levels.get(level)!.tile(z, x, y) })));
}

/**
 * Every tile of the range that holds something, in seedOrder, compressed in `encodings`. `walked`: called after each
 * tile of the range is cut, empty ones included (the seeding worker's sign of progress).
 */
export function* seededTiles(
  levels: ReadonlyMap<TileLevel, LevelTiles>,
  range: SeedRange,
  encodings: readonly StoredEncoding[],
  walked?: () => void,
): Generator<SeededTile> {
  for (const [z, x, y] of seedOrder(range)) {
    const bytes = cutTile(levels, z, x, y);
    walked?.();
    if (!bytes) continue;
    yield {
      key: tileKey(z, x, y),
      encoded: encodings.map((encoding) => COMPRESSORS[encoding](bytes)),
      identityBytes: bytes.length,
    };
  }
}
