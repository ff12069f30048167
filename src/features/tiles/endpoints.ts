/**
 * The boundaries as Mapbox Vector Tiles, and their TileJSON. Both take the key in the query string as well as the
 * header (`keyInQuery`): most tile clients cannot send headers.
 */
import { z } from 'zod';
import { BinaryAnswer } from '../../endpoints/binaryAnswer.js';
import { endpointsOf, type Endpoint } from '../../endpoints/endpoint.js';
import { externalOrigin } from '../../http/forwardedPrefix.js';
import { JSON_TYPE, MVT } from '../../http/mediaType.js';
import { parseQuery } from '../../http/validate.js';
import { NoQuery } from '../../schemas/requests.js';
import { TILE_PATH, tileJson } from './tileJson.js';
import type { BoundaryTiles } from './tileRepository.js';
import type { AttributionRepository } from '../../indexes/attribution.js';
import { MAX_ZOOM, MIN_ZOOM, outsidePyramid } from './zoomTable.js';

/** The services the tile endpoints use (src/wiring/services.ts builds them). */
export interface TileServices {
  boundaryTiles: BoundaryTiles;
  /** Whom the data comes from: the TileJSON's `attribution`. */
  attribution: AttributionRepository;
}

const endpoint = endpointsOf<TileServices>();

const tileNumber = (what: string) => z.coerce.number().int().min(0).describe(what);

/** z, x and y of the pyramid; x or y past 2^z - 1 is a 400 naming it. */
export const TileParams = z
  .object({
    z: tileNumber(`zoom, ${MIN_ZOOM} to ${MAX_ZOOM}`).max(MAX_ZOOM),
    x: tileNumber('column, 0 to 2^z - 1'),
    y: tileNumber('row, 0 to 2^z - 1 (from the north)'),
  })
  .superRefine(({ z: zoom, x, y }, ctx) => {
    const outside = outsidePyramid(zoom, x, y);
    if (outside) ctx.addIssue({ code: 'custom', path: [outside], message: `outside the pyramid at zoom ${zoom}` });
  });

const TileBody = z.string().describe('A Mapbox Vector Tile 2.1 (protobuf)');

const TileJsonSchema = z
  .looseObject({
    tilejson: z.literal('3.0.0'),
    tiles: z.array(z.string()),
    minzoom: z.number().int(),
    maxzoom: z.number().int(),
    bounds: z.array(z.number()),
    attribution: z.string(),
    vector_layers: z.array(
      z.looseObject({
        id: z.string(),
        fields: z.record(z.string(), z.string()),
        minzoom: z.number().int(),
        maxzoom: z.number().int(),
      }),
    ),
  })
  .describe('TileJSON 3.0.0');

const KEY_IN_QUERY = 'The key may also be given as `api_key` in the query string (tile clients cannot send headers).';

export const TILE_ENDPOINTS: readonly Endpoint<TileServices>[] = [
  endpoint({
    method: 'get',
    path: '/tiles/boundaries.json',
    tag: 'Boundaries',
    summary: 'TileJSON of the boundary tiles',
    description:
      'TileJSON 3.0.0: the tile URL, zooms, bounds, and each source layer with its fields and zooms. A MapLibre ' +
      'source `{"type": "vector", "url": ".../tiles/boundaries.json?api_key=..."}` needs nothing else: the tile URL ' +
      `carries the key given in the query string (none when the key came as the header). ${KEY_IN_QUERY}`,
    access: 'key',
    keyInQuery: true,
    query: NoQuery,
    ok: { description: 'The TileJSON', schema: TileJsonSchema },
    backend: true,
    serve:
      ({ boundaryTiles, attribution }) =>
      async (ctx) => {
        parseQuery(NoQuery, ctx.query);
        const key = (ctx.state as { queryKey?: string | null }).queryKey ?? undefined;
        // TileJSON's URLs are absolute: where the request came to (behind a proxy, when TRUST_PROXY, its
        // X-Forwarded-Proto, -Host and -Prefix). Koa 3's ctx.origin is the Origin header, not this.
        const [bounds, sources] = await Promise.all([boundaryTiles.bounds(), attribution.sources()]);
        const body = tileJson(externalOrigin(ctx), key, bounds, sources);
        ctx.type = JSON_TYPE;
        // Written for this caller (its key may be in it): not for shared caches.
        ctx.set('Cache-Control', 'private, no-cache');
        ctx.body = JSON.stringify(body);
      },
  }),
  endpoint({
    method: 'get',
    path: TILE_PATH,
    tag: 'Boundaries',
    summary: 'A boundary vector tile',
    description:
      'One Mapbox Vector Tile of the pyramid (`/tiles/boundaries.json` describes its layers and zooms): a source ' +
      'layer per level from the zoom where it is legible, and `labels`, a point inside each area. Feature properties: ' +
      '`id`, `name`, `name:nl`/`name:fr`/`name:de` where the area has them, `local_identifier`, `level`. ' +
      KEY_IN_QUERY,
    access: 'key',
    keyInQuery: true,
    pathParams: TileParams,
    query: NoQuery,
    ok: {
      description: 'The tile',
      schema: TileBody,
      mediaType: MVT,
      noContent: 'The tile holds nothing (no boundary crosses it)',
    },
    reads: ['areas', 'buildings'],
    backend: true,
    handle: async ({ params: { z: zoom, x, y } }, { boundaryTiles }) =>
      new BinaryAnswer(MVT, await boundaryTiles.tile(zoom, x, y)),
  }),
];
